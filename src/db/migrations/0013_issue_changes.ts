import type { Migration } from "./helpers";

/**
 * The issue-change outbox (decision record docs/decisions/0010-issue-changes-outbox.md): every
 * change of an issue's state is a row written in the transaction that makes the change, numbered
 * by a counter row that the writing transaction holds until it commits, so numbers are committed
 * in order and without gaps; consumers keep their position in `outbox_positions`.
 */
export const m0013: Migration = {
  async up(db) {
    await db.schema
      .createTable("issue_changes")
      .addColumn("seq", "bigint", (c) => c.primaryKey())
      .addColumn("project_id", "integer", (c) => c.notNull())
      .addColumn("issue_id", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("user_id", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("issue_changes_created_at").on("issue_changes").column("created_at").execute();
    await db.schema
      .createTable("outbox_counter")
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .execute();
    await db.insertInto("outbox_counter").values({ id: 1, seq: 0 }).execute();
    await db.schema
      .createTable("outbox_positions")
      .addColumn("consumer", "text", (c) => c.primaryKey())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
  },
};
