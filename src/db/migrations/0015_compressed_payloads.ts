import { sql } from "kysely";
import type { Migration } from "./helpers";

/**
 * Event and transaction payloads are stored compressed (src/core/storage/payload.ts, decision
 * 0013). PostgreSQL's `text` cannot hold the bytes, so the columns become `bytea`, keeping what
 * is stored as its UTF-8 bytes (read back as JSON text, as before). SQLite needs nothing: a
 * column of TEXT affinity stores a blob as a blob.
 */
export const m0015: Migration = {
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    for (const table of ["events", "transactions"]) {
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN data TYPE bytea USING convert_to(data, 'UTF8')`.execute(db);
    }
  },
};
