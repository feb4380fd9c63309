import type { Migration } from "./helpers";
import { withId } from "./helpers";

/**
 * Envelopes the digest set aside because processing or storing them failed
 * (docs/decisions/0006-dead-letters.md). `body` is the envelope as queued, kept only so an
 * administrator can retry it; pages show `excerpt`, which went through the scrubber.
 */
export const m0008: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("dead_letters"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("key_id", "integer", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("item_types", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("excerpt", "text", (c) => c.notNull())
      .addColumn("body", dialect === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("dead_letters_project_created").on("dead_letters").columns(["project_id", "created_at"]).execute();
    await db.schema.createIndex("dead_letters_created").on("dead_letters").column("created_at").execute();
  },
};
