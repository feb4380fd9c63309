import type { Migration } from "./helpers";

/**
 * Login throttling becomes one counter row per key (a client address or an account), bumped
 * atomically before the password is checked (src/db/login-attempts.ts, decision 0007). The
 * old table of failures was read, then written after the check, so parallel guesses all
 * passed the read; its rows are only throttling state and are not carried over.
 */
export const m0009: Migration = {
  async up(db) {
    await db.schema
      .createTable("login_attempts")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("window_start", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("login_attempts_window_start").on("login_attempts").column("window_start").execute();
    await db.schema.dropTable("login_failures").execute();
  },
};
