import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database as DatabaseSetting } from "../config/settings";
import type { DB } from "./schema";

export type Dialect = "sqlite" | "postgres";

export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

// int8 (count(*), bigint timestamps) as number: our values stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export interface ConnectOptions {
  /** PostgreSQL only: put every table in this schema (tests use one per suite). */
  schema?: string;
}

export function connect(setting: DatabaseSetting, options: ConnectOptions = {}): Store {
  if (setting.kind === "sqlite") return connectSqlite(setting.file);
  return connectPostgres(setting.url, setting.poolMax, options.schema);
}

function connectSqlite(file: string): Store {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers (pages, API) run beside the writer; busy_timeout makes two threads or
  // processes wait for each other instead of failing with SQLITE_BUSY.
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

function connectPostgres(url: string, max: number, schema: string | undefined): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", close: () => db.destroy() };
}
