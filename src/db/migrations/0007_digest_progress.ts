import type { Migration } from "./helpers";

/** Where the SQLite digest has got to in the queue file (src/db/queue.ts). */
export const m0007: Migration = {
  async up(db) {
    await db.schema
      .createTable("digest_progress")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("last_queue_id", "bigint", (c) => c.notNull())
      .execute();
  },
};
