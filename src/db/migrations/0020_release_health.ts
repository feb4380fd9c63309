import type { Migration } from "./helpers";

/**
 * Release health: the distinct users and the unhealthy sessions behind the
 * session counts. `session_distinct` holds one row per member of a bucket, with the worst status
 * it had (0 ok, 1 errored, 2 unhandled, 3 abnormal, 4 crashed): `kind` 'user' (a hash of the session's `did`,
 * per UTC day) or 'session' (a hash of the `sid` of a session that reported errors, per started
 * hour), so that a user or a session is counted once however many updates name it. Members are
 * hashes with the project in them, never the ids as sent. Bounded per bucket by the digest
 * (MAX_BUCKET_MEMBERS in src/core/digest/records.ts).
 *
 * The index on events lets the releases pages count a release's events in one environment.
 */
export const m0020: Migration = {
  async up(db) {
    await db.schema
      .createTable("session_distinct")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("bucket", "bigint", (c) => c.notNull())
      .addColumn("release", "text", (c) => c.notNull())
      .addColumn("environment", "text", (c) => c.notNull())
      .addColumn("member", "text", (c) => c.notNull())
      .addColumn("worst", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("session_distinct_pk", ["project_id", "kind", "bucket", "release", "environment", "member"])
      .execute();
    await db.schema.createIndex("session_distinct_bucket").on("session_distinct").column("bucket").execute();
    await db.schema.createIndex("session_counts_hour").on("session_counts").column("hour").execute();
    await db.schema
      .createIndex("events_project_environment_release")
      .on("events")
      .columns(["project_id", "environment", "release"])
      .execute();
  },
};
