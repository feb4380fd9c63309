import { withId, type Migration } from "./helpers";

/**
 * The audit log (decision 0024): one row per change, append-only. No foreign keys on
 * purpose: an entry outlives the user, token or thing it names (deleting a project must not delete
 * the record that it was deleted); `actor_label` and `target_label` keep the names as they were.
 */
export const m0031: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("audit_log"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull())
      .addColumn("event", "text", (c) => c.notNull())
      .addColumn("actor_user_id", "integer")
      .addColumn("actor_label", "text", (c) => c.notNull())
      .addColumn("actor_token_id", "integer")
      .addColumn("ip_address", "text")
      .addColumn("target_type", "text", (c) => c.notNull())
      .addColumn("target_id", "text")
      .addColumn("target_label", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("audit_log_org_id").on("audit_log").columns(["organization_id", "id"]).execute();
    await db.schema.createIndex("audit_log_created").on("audit_log").column("created_at").execute();
  },
};
