import type { Migration } from "./helpers";

/**
 * Per-user notification preferences and workflow emails (decision 0021).
 * `notification_preferences` holds a person's own choices (no row: everything on, Sentry's
 * default); `project_alert_preferences` overrides issue alerts for one project. Both go with
 * their user, and the project override with its project (ON DELETE CASCADE).
 *
 * The workflow consumer of the issue-change outbox starts at the outbox's head: assignments,
 * comments and resolutions made before this migration email nobody.
 */
export const m0028: Migration = {
  async up(db) {
    await db.schema
      .createTable("notification_preferences")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
      .addColumn("issue_alerts", "integer", (c) => c.notNull())
      .addColumn("assigned", "integer", (c) => c.notNull())
      .addColumn("comments", "integer", (c) => c.notNull())
      .addColumn("resolutions", "integer", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("project_alert_preferences")
      .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("issue_alerts", "integer", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("project_alert_preferences_pk", ["user_id", "project_id"])
      .execute();
    await db.schema.createIndex("project_alert_preferences_project").on("project_alert_preferences").column("project_id").execute();
    const counter = (await db.selectFrom("outbox_counter").select("seq").where("id", "=", 1).executeTakeFirst()) as
      { seq: number | string } | undefined;
    await db
      .insertInto("outbox_positions")
      .values({ consumer: "workflow", seq: Number(counter?.seq ?? 0), updated_at: Date.now() })
      .onConflict((oc) => oc.column("consumer").doNothing())
      .execute();
  },
};
