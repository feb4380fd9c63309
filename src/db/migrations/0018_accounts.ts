import type { Migration } from "./helpers";

/**
 * Accounts: password-reset tokens, stored only as their SHA-256 (like
 * sessions), and a last-seen time on sessions for the account page's session list. A session
 * made before has none: the list shows its sign-in time until it is next used.
 */
export const m0018: Migration = {
  async up(db) {
    await db.schema
      .createTable("password_resets")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("password_resets_user_id").on("password_resets").column("user_id").execute();
    await db.schema.alterTable("sessions").addColumn("last_seen_at", "bigint").execute();
  },
};
