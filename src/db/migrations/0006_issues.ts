import type { Migration } from "./helpers";
import { withId } from "./helpers";

/** Issues (groups of events), their hashes, tag and user counts, activity, bookmarks. */
export const m0006: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("issues"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("short_number", "integer", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("culprit", "text", (c) => c.notNull())
      .addColumn("level", "text", (c) => c.notNull())
      .addColumn("metadata", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("substatus", "text", (c) => c.notNull())
      .addColumn("first_seen", "bigint", (c) => c.notNull())
      .addColumn("last_seen", "bigint", (c) => c.notNull())
      .addColumn("times_seen", "bigint", (c) => c.notNull())
      .addColumn("user_count", "bigint", (c) => c.notNull())
      .addColumn("first_release", "text")
      .addColumn("last_release", "text")
      .addColumn("first_environment", "text")
      .addColumn("last_environment", "text")
      .addColumn("resolved_at", "bigint")
      .addColumn("resolved_in_release", "text")
      .addColumn("resolved_next_release", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("ignore_until", "bigint")
      .addColumn("ignore_count", "bigint")
      .addColumn("ignore_users", "bigint")
      .addColumn("ignore_baseline_count", "bigint")
      .addColumn("ignore_baseline_users", "bigint")
      .addColumn("assignee_id", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("merged_into_id", "integer")
      .addColumn("grouping_config", "text", (c) => c.notNull())
      .addUniqueConstraint("issues_project_short", ["project_id", "short_number"])
      .execute();
    await db.schema.createIndex("issues_project_last_seen").on("issues").columns(["project_id", "last_seen"]).execute();
    await db.schema.createIndex("issues_project_status_last_seen").on("issues").columns(["project_id", "status", "last_seen"]).execute();

    await db.schema
      .createTable("issue_hashes")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("hash", "text", (c) => c.notNull())
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("grouping_config", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_hashes_pk", ["project_id", "hash"])
      .execute();
    await db.schema.createIndex("issue_hashes_issue").on("issue_hashes").column("issue_id").execute();

    await db.schema
      .createTable("issue_tags")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("key", "text", (c) => c.notNull())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("times_seen", "bigint", (c) => c.notNull())
      .addColumn("first_seen", "bigint", (c) => c.notNull())
      .addColumn("last_seen", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_tags_pk", ["issue_id", "key", "value"])
      .execute();
    await db.schema.createIndex("issue_tags_key_value").on("issue_tags").columns(["key", "value"]).execute();

    await db.schema
      .createTable("issue_users")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("user_key", "text", (c) => c.notNull())
      .addColumn("first_seen", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_users_pk", ["issue_id", "user_key"])
      .execute();

    await db.schema
      .createTable("issue_hourly")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_hourly_pk", ["issue_id", "hour"])
      .execute();

    await withId(db.schema.createTable("issue_activity"), dialect)
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("issue_activity_issue").on("issue_activity").columns(["issue_id", "created_at"]).execute();

    await db.schema
      .createTable("issue_bookmarks")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("issue_bookmarks_pk", ["issue_id", "user_id"])
      .execute();

    await db.schema.alterTable("events").addColumn("issue_id", "integer").execute();
    await db.schema.alterTable("events").addColumn("grouping_hash", "text").execute();
    await db.schema.createIndex("events_issue_time").on("events").columns(["issue_id", "timestamp"]).execute();

    await db.schema
      .createTable("project_grouping")
      .addColumn("project_id", "integer", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("fingerprint_rules", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("next_short_number", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
