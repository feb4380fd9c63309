import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { DB } from "../../src/db/schema";
import type { TestStore } from "./stores";

/** A statement and the steps of SQLite's plan for it (`EXPLAIN QUERY PLAN`). */
export interface PlannedStatement {
  sql: string;
  steps: string[];
}

/**
 * Runs `work` against a SQLite test store through a second connection to the same file that
 * records every statement, then asks SQLite how it would run each one (same text, same
 * parameters): for tests that a query seeks through an index rather than reading a whole table.
 */
export async function planStatements(store: TestStore, work: (db: Kysely<DB>) => Promise<void>): Promise<PlannedStatement[]> {
  if (store.dialect !== "sqlite") throw new Error("query plans are read on SQLite");
  const file = join(store.env.TELLTALE_DATA_DIR!, "telltale.sqlite");
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const logged = new Kysely<DB>({
    dialect: new SqliteDialect({ database: new SQLite(file) }),
    log: (event) => {
      if (event.level === "query") statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  try {
    await work(logged);
  } finally {
    await logged.destroy();
  }
  const plans = new SQLite(file, { readonly: true });
  try {
    return statements.map((s) => ({
      sql: s.sql,
      steps: (plans.prepare(`explain query plan ${s.sql}`).all(...(s.parameters as unknown[])) as { detail: string }[]).map(
        (r) => r.detail,
      ),
    }));
  } finally {
    plans.close();
  }
}
