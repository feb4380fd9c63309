import { withId, type Migration } from "./helpers";

/**
 * Envelopes the digest set aside for a moment because an event in them was still being
 * enriched (a large source map decoding in its thread). Written in the batch's own
 * transaction, so taking one off the queue and keeping it here is one step; digested again once
 * `not_before` has passed, `deferrals` counting the tries (src/core/digest/batch.ts).
 */
export const m0022: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("digest_deferred"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("key_id", "integer", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("body", dialect === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
      .addColumn("deferrals", "integer", (c) => c.notNull())
      .addColumn("not_before", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("digest_deferred_not_before").on("digest_deferred").column("not_before").execute();
  },
};
