import type { Migration } from "./helpers";

/**
 * API tokens get scopes (Sentry's `resource:verb` names), an optional expiry and a revocation
 * time. Tokens made before have no scopes stored: they keep every scope their user's
 * role allows, as the issue asks. An organization token (Sentry's `sntrys_` format, for CI) is
 * a row with the organization it is bound to; it acts with its creator's membership.
 */
export const m0016: Migration = {
  async up(db) {
    await db.schema.alterTable("api_tokens").addColumn("scopes", "text").execute();
    await db.schema.alterTable("api_tokens").addColumn("expires_at", "bigint").execute();
    await db.schema.alterTable("api_tokens").addColumn("revoked_at", "bigint").execute();
    await db.schema
      .alterTable("api_tokens")
      .addColumn("organization_id", "integer", (c) => c.references("organizations.id").onDelete("cascade"))
      .execute();
  },
};
