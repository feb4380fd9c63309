import { withId, type Migration } from "./helpers";

/**
 * Metric alerts (decision 0020): organization rules in Sentry's alert-rule shape over
 * one or more projects, the evaluation of each rule once a minute (value and state), the emails
 * a change of state makes (durable rows with their attempts, as the issue alerts' 0024), and the
 * counts they read: error events and distinct users per project, minute, environment and level,
 * added by the digest beside the per-issue minute counts (0012), which know neither environment
 * nor level. The minute buckets are kept a little longer than the longest window, a day.
 */
export const m0027: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("metric_alert_rules"), dialect)
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("aggregate", "text", (c) => c.notNull())
      .addColumn("query", "text", (c) => c.notNull())
      .addColumn("environment", "text")
      .addColumn("time_window", "integer", (c) => c.notNull())
      .addColumn("threshold_type", "integer", (c) => c.notNull())
      .addColumn("resolve_threshold", "double precision")
      .addColumn("triggers", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("state_since", "bigint", (c) => c.notNull())
      .addColumn("next_eval_at", "bigint", (c) => c.notNull())
      .addColumn("created_by", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("metric_alert_rules_org").on("metric_alert_rules").column("organization_id").execute();
    await db.schema.createIndex("metric_alert_rules_due").on("metric_alert_rules").columns(["status", "next_eval_at"]).execute();
    await db.schema
      .createTable("metric_alert_rule_projects")
      .addColumn("rule_id", "integer", (c) => c.notNull().references("metric_alert_rules.id").onDelete("cascade"))
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("metric_alert_rule_projects_pk", ["rule_id", "project_id"])
      .execute();
    await db.schema.createIndex("metric_alert_rule_projects_project").on("metric_alert_rule_projects").column("project_id").execute();
    await withId(db.schema.createTable("metric_alert_evaluations"), dialect)
      .addColumn("rule_id", "integer", (c) => c.notNull().references("metric_alert_rules.id").onDelete("cascade"))
      .addColumn("minute", "bigint", (c) => c.notNull())
      .addColumn("value", "double precision", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .addColumn("transition", "text")
      .addColumn("at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("metric_alert_evaluations_rule_minute", ["rule_id", "minute"])
      .execute();
    await db.schema
      .createTable("metric_alert_notifications")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
      .addColumn("rule_id", "integer", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("details", "text", (c) => c.notNull())
      .addColumn("user_id", "integer", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
      .addColumn("claimed_until", "bigint")
      .addColumn("last_error", "text")
      .addColumn("message_id", "text")
      .addColumn("sent_at", "bigint")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("metric_alert_notifications_due")
      .on("metric_alert_notifications")
      .columns(["status", "next_attempt_at"])
      .execute();
    await db.schema
      .createIndex("metric_alert_notifications_rule")
      .on("metric_alert_notifications")
      .columns(["rule_id", "created_at"])
      .execute();
    await withId(db.schema.createTable("metric_alert_attempts"), dialect)
      .addColumn("notification_id", "text", (c) => c.notNull().references("metric_alert_notifications.id").onDelete("cascade"))
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("metric_alert_attempts_notification").on("metric_alert_attempts").column("notification_id").execute();
    await db.schema
      .createTable("metric_minutes")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("minute", "bigint", (c) => c.notNull())
      .addColumn("environment", "text", (c) => c.notNull())
      .addColumn("level", "text", (c) => c.notNull())
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("metric_minutes_pk", ["project_id", "minute", "environment", "level"])
      .execute();
    await db.schema
      .createTable("metric_minute_users")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("minute", "bigint", (c) => c.notNull())
      .addColumn("environment", "text", (c) => c.notNull())
      .addColumn("level", "text", (c) => c.notNull())
      .addColumn("user_key", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("metric_minute_users_pk", ["project_id", "minute", "environment", "level", "user_key"])
      .execute();
    await db.schema.createIndex("metric_minutes_minute").on("metric_minutes").column("minute").execute();
    await db.schema.createIndex("metric_minute_users_minute").on("metric_minute_users").column("minute").execute();
  },
};
