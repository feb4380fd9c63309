import { withId, type Migration } from "./helpers";

/**
 * Alert notifications (decision 0017): one durable row per (rule, issue change,
 * recipient), its id derived from those three, written by the alerts consumer of the
 * issue-change outbox and delivered by the sender with retries; every attempt is a row of
 * `alert_attempts`. `alert_rule_fires` remembers when a rule last fired for an issue (its
 * `frequency`) and for which change, so a change read again decides the same way.
 *
 * The consumer starts at the outbox's head: changes made before alerts existed notify nobody.
 */
export const m0024: Migration = {
  async up(db, dialect) {
    await db.schema
      .createTable("alert_notifications")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("rule_id", "integer", (c) => c.notNull())
      .addColumn("issue_id", "integer", (c) => c.notNull())
      .addColumn("change_seq", "bigint", (c) => c.notNull())
      .addColumn("change_kind", "text", (c) => c.notNull())
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
    await db.schema.createIndex("alert_notifications_due").on("alert_notifications").columns(["status", "next_attempt_at"]).execute();
    await db.schema.createIndex("alert_notifications_project").on("alert_notifications").columns(["project_id", "created_at"]).execute();
    await withId(db.schema.createTable("alert_attempts"), dialect)
      .addColumn("notification_id", "text", (c) => c.notNull().references("alert_notifications.id").onDelete("cascade"))
      .addColumn("attempt", "integer", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("error", "text")
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("alert_attempts_notification").on("alert_attempts").column("notification_id").execute();
    await db.schema
      .createTable("alert_rule_fires")
      .addColumn("rule_id", "integer", (c) => c.notNull().references("alert_rules.id").onDelete("cascade"))
      .addColumn("issue_id", "integer", (c) => c.notNull())
      .addColumn("fired_at", "bigint", (c) => c.notNull())
      .addColumn("change_seq", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("alert_rule_fires_pk", ["rule_id", "issue_id"])
      .execute();
    const counter = (await db.selectFrom("outbox_counter").select("seq").where("id", "=", 1).executeTakeFirst()) as
      { seq: number | string } | undefined;
    await db
      .insertInto("outbox_positions")
      .values({ consumer: "alerts", seq: Number(counter?.seq ?? 0), updated_at: Date.now() })
      .onConflict((oc) => oc.column("consumer").doNothing())
      .execute();
  },
};
