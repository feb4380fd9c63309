import type { Migration } from "./helpers";

/**
 * API tokens get scopes (Sentry's `resource:verb` names), an optional expiry and a revocation
 * time (issue 12). Tokens made before have no scopes stored: they keep every scope their user's
 * role allows, as the issue asks.
 */
export const m0016: Migration = {
  async up(db) {
    await db.schema.alterTable("api_tokens").addColumn("scopes", "text").execute();
    await db.schema.alterTable("api_tokens").addColumn("expires_at", "bigint").execute();
    await db.schema.alterTable("api_tokens").addColumn("revoked_at", "bigint").execute();
  },
};
