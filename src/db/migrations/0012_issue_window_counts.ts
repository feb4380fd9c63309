import type { Migration } from "./helpers";

/**
 * Counts per issue that frequency conditions (alerts: more than N events or N users in 1, 5,
 * 15 or 60 minutes, a day, a week, 30 days) read without scanning events. Events per minute for
 * the last day; distinct users per minute for the last day and per hour beyond (events per hour
 * are `issue_hourly`). Distinct users over a window cannot be summed from per-bucket counts, so
 * the buckets keep the user keys themselves: exact, and bounded by the events that made them.
 */
export const m0012: Migration = {
  async up(db) {
    await db.schema
      .createTable("issue_minutes")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("minute", "bigint", (c) => c.notNull())
      .addColumn("count", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_minutes_pk", ["issue_id", "minute"])
      .execute();
    await db.schema
      .createTable("issue_minute_users")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("minute", "bigint", (c) => c.notNull())
      .addColumn("user_key", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_minute_users_pk", ["issue_id", "minute", "user_key"])
      .execute();
    await db.schema
      .createTable("issue_hour_users")
      .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("user_key", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("issue_hour_users_pk", ["issue_id", "hour", "user_key"])
      .execute();
    // Retention deletes by time across issues.
    await db.schema.createIndex("issue_minutes_minute").on("issue_minutes").column("minute").execute();
    await db.schema.createIndex("issue_minute_users_minute").on("issue_minute_users").column("minute").execute();
    await db.schema.createIndex("issue_hour_users_hour").on("issue_hour_users").column("hour").execute();
  },
};
