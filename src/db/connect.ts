import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type SqliteStatement,
} from "kysely";
import pg from "pg";
import type { Database as DatabaseSetting } from "../config/settings";
import { PreparingPool } from "./prepared-pool";
import { copyIntoQueue } from "./queue-copy";
import { applySqlitePragmas, openQueueDatabase, queueFileOf } from "./queue";
import type { DB, QueueDB } from "./schema";
import type { Store } from "./store";

export type { Dialect, Store } from "./store";

// int8 (count(*), bigint timestamps) as number: our values stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export interface ConnectOptions {
  /** PostgreSQL only: put every table in this schema (tests use one per suite). */
  schema?: string;
  /**
   * SQLite only: false leaves both files' WAL checkpoints to another connection (the digest
   * worker's, src/server/digest-worker.ts). The request path and the UI thread set it: SQLite
   * runs an automatic checkpoint inside the commit that takes the WAL past 1000 pages, whoever
   * wrote those pages, and it copies megabytes synchronously — a small outcome write on the main
   * thread took 247 ms that way right after a backlog drained, holding up every request
   * (docs/benchmarks.md).
   */
  checkpoints?: boolean;
  /**
   * SQLite only: the request thread's connection. Its writes to the queue file never sleep in
   * SQLite's busy handler (busy_timeout 0): the handler would block the thread's event loop, and
   * with it every request and page, until the digest's RESTART checkpoint lets go of the file —
   * 5 s and then a 500 for every request in the group, once under full load
   * (docs/benchmarks.md). QueueWriter retries a busy write on a timer instead.
   */
  queueWriter?: boolean;
  /**
   * SQLite only: the digest's connection. A batch is written under a savepoint
   * (src/db/digest-write.ts), and SQLite copies each page the savepoint changes into a statement
   * journal, which spills from 64 KiB into a temporary file: ~2 MB of extra writes per batch of
   * the bench's mix, as many write calls as the WAL's. `temp_store = MEMORY` keeps it in memory,
   * bounded by what one batch changes (its bodies are 16 MiB at most, src/core/digest/batch.ts):
   * 25,019 fewer write calls per 5,000 envelopes, a few per cent of the digest's time
   * (docs/benchmarks.md). Other connections keep temporary files, so a large sort on
   * the read path never takes memory.
   */
  digest?: boolean;
}

export function connect(setting: DatabaseSetting, options: ConnectOptions = {}): Store {
  if (setting.kind === "sqlite") return connectSqlite(setting.file, { checkpoints: true, queueWriter: false, digest: false, ...options });
  return connectPostgres(setting.url, setting.poolMax, options.schema);
}

/**
 * The main file's page size when it is made. A digest batch's commit writes every page the batch
 * changed to the WAL, one frame (two write calls) each, and a checkpoint copies them again: most
 * of those pages are the growing ends of the span and event tables, which 16 KiB pages fill in a
 * quarter of the frames. In four alternating `bench:digest --kind mix` pairs the digest took 0.85,
 * 0.94, 0.91 and 0.87 of the CPU it took with SQLite's 4 KiB pages (docs/benchmarks.md).
 * A file made before keeps its pages: SQLite can change them only by a VACUUM, which
 * on a large database would hold the server's start for minutes (decision 0035).
 */
export const MAIN_PAGE_BYTES = 16 * 1024;

function connectSqlite(file: string, { checkpoints, queueWriter, digest }: Required<Omit<ConnectOptions, "schema">>): Store {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  // Before anything writes the file's header (journal_mode = WAL does); a no-op on a file that has one.
  database.pragma(`page_size = ${MAIN_PAGE_BYTES}`);
  applySqlitePragmas(database);
  database.pragma("foreign_keys = ON");
  if (digest) database.pragma("temp_store = MEMORY");
  if (!checkpoints) database.pragma("wal_autocheckpoint = 0");
  const db = new Kysely<DB>({ dialect: new ImmediateSqliteDialect({ database: cachingStatements(database) }) });
  const queueDatabase = openQueueDatabase(queueFileOf(file));
  if (!checkpoints) queueDatabase.pragma("wal_autocheckpoint = 0");
  if (queueWriter) queueDatabase.pragma("busy_timeout = 0");
  const queue = new Kysely<QueueDB>({ dialect: new ImmediateSqliteDialect({ database: cachingStatements(queueDatabase) }) });
  return {
    db,
    queue,
    dialect: "sqlite",
    async close() {
      await queue.destroy();
      await db.destroy();
    },
  };
}

const INCREMENTAL_VACUUM = /^\s*pragma\s+incremental_vacuum\b/i;

/**
 * `PRAGMA incremental_vacuum` frees one page per step of its statement, and better-sqlite3's
 * `run()` steps once: through Kysely it gave back a single page. `exec` steps it to the end.
 */
function stepToCompletion(database: SQLite.Database, sql: string): SqliteStatement {
  return {
    reader: false,
    run() {
      database.exec(sql);
      return { changes: 0, lastInsertRowid: 0 };
    },
    all: () => [],
    iterate: () => [][Symbol.iterator](),
  };
}

/** Prepared statements kept per connection; the digest's hot statements repeat with a few shapes. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which was an eighth of the digest
 * thread's time (docs/benchmarks.md). The same SQL text gets the same prepared statement,
 * the least recently used dropped beyond the cache's size. Kysely runs one query at a time
 * per connection, so a statement is never in use twice at once.
 */
export function cachingStatements(database: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      if (INCREMENTAL_VACUUM.test(sql)) return stepToCompletion(database, sql);
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/**
 * Transactions take the write lock at BEGIN. A deferred transaction that reads and then
 * writes fails at once with SQLITE_BUSY when another connection (the other thread, the
 * CLI) has written meanwhile: busy_timeout only makes a transaction wait at its start.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

function connectPostgres(url: string, max: number, schema: string | undefined): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // Named statements (only the inserts src/db/prepared-pool.ts names) get a generic plan from
  // their first execution rather than their sixth: the queue's group commits have up to 128
  // shapes per connection, most of which would otherwise never run five times. Set per
  // connection, not in `options`, which would replace any the DATABASE_URL carries; the
  // client runs it before any query it is given.
  pool.on("connect", (client) => {
    client.query("set plan_cache_mode = force_generic_plan").catch(() => {
      // A server without the setting (before 12) plans named statements as before.
    });
  });
  // An idle connection the server closes (a restart, a failover, DROP DATABASE … FORCE)
  // emits 'error' on the pool; unhandled, that would end the process. The pool replaces it.
  pool.on("error", (error) =>
    process.stderr.write(`${new Date().toISOString()} warn  idle PostgreSQL connection closed error=${JSON.stringify(error.message)}\n`),
  );
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new PreparingPool(pool) }) });
  return {
    db,
    queue: db,
    appendToQueue: (rows) => copyIntoQueue(pool, rows),
    dialect: "postgres",
    ...(schema ? { schema } : {}),
    close: () => db.destroy(),
  };
}
