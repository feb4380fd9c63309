import { withId, type Migration } from "./helpers";

/**
 * Two-factor sign-in (decision 0023). `user_totp` holds a user's TOTP secret,
 * sealed with TELLTALE_SECRET_KEY when it is set (src/core/crypto/secret-box.ts), and the last
 * time step a code was accepted for, so a code works once. `recovery_codes` holds the SHA-256
 * of each recovery code; a used one keeps its row with `used_at`. `login_challenges` are the
 * pending half-sessions between the password and the code, stored as the SHA-256 of their
 * cookie token like sessions. `organizations.require_2fa` sends members without it to enrol.
 */
export const m0030: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable("user_totp")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("last_step", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable("recovery_codes"), dialect)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("code_hash", "text", (c) => c.notNull())
      .addColumn("used_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("recovery_codes_user").on("recovery_codes").columns(["user_id", "code_hash"]).execute();
    await db.schema
      .createTable("login_challenges")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("user_agent", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("login_challenges_expires").on("login_challenges").column("expires_at").execute();
    await db.schema
      .alterTable("organizations")
      .addColumn("require_2fa", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
