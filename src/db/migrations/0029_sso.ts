import { withId, type Migration } from "./helpers";

/**
 * Single sign-on with OpenID Connect per organization (decision 0022).
 * `sso_providers`: one provider per organization, its client secret encrypted (AES-256-GCM with
 * a key derived from TELLTALE_SECRET_KEY) and the provider's discovered metadata as JSON.
 * `sso_identities`: which account an (issuer, subject) of an organization's provider signs in as.
 */
export const m0029: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable("sso_providers")
      .addColumn("organization_id", "integer", (c) => c.primaryKey().references("organizations.id").onDelete("cascade"))
      .addColumn("issuer", "text", (c) => c.notNull())
      .addColumn("client_id", "text", (c) => c.notNull())
      .addColumn("client_secret", "text", (c) => c.notNull())
      .addColumn("metadata", "text", (c) => c.notNull())
      .addColumn("default_role", "text", (c) => c.notNull())
      .addColumn("default_team_id", "integer", (c) => c.references("teams.id").onDelete("set null"))
      .addColumn("require_sso", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable("sso_identities"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("issuer", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("last_sign_in_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("sso_identities_subject", ["organization_id", "issuer", "subject"])
      .execute();
    await db.schema.createIndex("sso_identities_user").on("sso_identities").column("user_id").execute();
  },
};
