import { sql } from "kysely";
import type { Migration } from "./helpers";
import { withId } from "./helpers";

/** Accounts, organizations, projects, keys and tokens. */
export const m0001: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("users"), dialect)
      .addColumn("email", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("password_hash", "text", (c) => c.notNull())
      .addColumn("is_superuser", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("user_agent", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();

    await withId(db.schema.createTable("login_failures"), dialect)
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("login_failures_email_at").on("login_failures").columns(["email", "at"]).execute();
    await db.schema.createIndex("login_failures_ip_at").on("login_failures").columns(["ip", "at"]).execute();

    await withId(db.schema.createTable("organizations"), dialect)
      .addColumn("slug", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("is_internal", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("memberships")
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("role", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("memberships_pk", ["organization_id", "user_id"])
      .addCheckConstraint("memberships_role", sqlRoleCheck())
      .execute();
    await db.schema.createIndex("memberships_user_id").on("memberships").column("user_id").execute();

    await withId(db.schema.createTable("projects"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("slug", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("platform", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("projects_org_slug", ["organization_id", "slug"])
      .execute();

    await withId(db.schema.createTable("project_keys"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("label", "text", (c) => c.notNull())
      .addColumn("public_key", "text", (c) => c.notNull().unique())
      .addColumn("secret_key", "text", (c) => c.notNull())
      .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("rate_limit_count", "integer")
      .addColumn("rate_limit_window_seconds", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("project_keys_project_id").on("project_keys").column("project_id").execute();

    await withId(db.schema.createTable("api_tokens"), dialect)
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("token_hash", "text", (c) => c.notNull().unique())
      .addColumn("token_prefix", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint")
      .execute();
  },
};

function sqlRoleCheck() {
  return sql`role in ('owner', 'admin', 'member')`;
}
