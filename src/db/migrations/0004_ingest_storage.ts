import type { Migration } from "./helpers";
import { withId } from "./helpers";

/** Storage for every item type ingest accepts, plus outcomes, quotas and per-project ingest options. */
export const m0004: Migration = {
  async up(db, dialect) {
    const blob = dialect === "sqlite" ? "blob" : "bytea";

    await db.schema
      .createTable("project_quotas")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("limit_count", "integer", (c) => c.notNull())
      .addColumn("window_seconds", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("project_quotas_pk", ["project_id", "category"])
      .execute();

    await db.schema
      .createTable("project_options")
      .addColumn("project_id", "integer", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
      .addColumn("filters", "text", (c) => c.notNull().defaultTo("{}"))
      .addColumn("scrubbing", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();

    await db.schema
      .createTable("outcomes")
      .addColumn("project_id", "integer", (c) => c.notNull())
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("category", "text", (c) => c.notNull())
      .addColumn("outcome", "text", (c) => c.notNull())
      .addColumn("reason", "text", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("outcomes_pk", ["project_id", "hour", "category", "outcome", "reason"])
      .execute();

    await withId(db.schema.createTable("events"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("timestamp", "double precision", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("level", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("release", "text")
      .addColumn("environment", "text")
      .addColumn("trace_id", "text")
      .addColumn("data", "text", (c) => c.notNull())
      .addUniqueConstraint("events_project_event", ["project_id", "event_id"])
      .execute();
    await db.schema.createIndex("events_trace").on("events").column("trace_id").execute();

    await withId(db.schema.createTable("transactions"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("trace_id", "text", (c) => c.notNull())
      .addColumn("span_id", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("op", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("start_timestamp", "double precision", (c) => c.notNull())
      .addColumn("timestamp", "double precision", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .addUniqueConstraint("transactions_project_event", ["project_id", "event_id"])
      .execute();
    await db.schema.createIndex("transactions_trace").on("transactions").column("trace_id").execute();

    await withId(db.schema.createTable("spans"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("trace_id", "text", (c) => c.notNull())
      .addColumn("span_id", "text", (c) => c.notNull())
      .addColumn("parent_span_id", "text")
      .addColumn("segment_id", "text")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("op", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("start_timestamp", "double precision", (c) => c.notNull())
      .addColumn("timestamp", "double precision", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("spans_trace").on("spans").column("trace_id").execute();

    await withId(db.schema.createTable("logs"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("timestamp", "double precision", (c) => c.notNull())
      .addColumn("level", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("trace_id", "text")
      .addColumn("data", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("logs_project_time").on("logs").columns(["project_id", "timestamp"]).execute();

    await db.schema
      .createTable("session_counts")
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("hour", "bigint", (c) => c.notNull())
      .addColumn("release", "text", (c) => c.notNull())
      .addColumn("environment", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("quantity", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("session_counts_pk", ["project_id", "hour", "release", "environment", "status"])
      .execute();

    await withId(db.schema.createTable("feedback"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("comments", "text", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable("check_ins"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("check_in_id", "text", (c) => c.notNull())
      .addColumn("monitor_slug", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("duration", "double precision")
      .addColumn("environment", "text")
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("data", "text", (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable("attachments"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("event_id", "text")
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("attachment_type", "text", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull())
      .addColumn("complete", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("attachments_event").on("attachments").columns(["project_id", "event_id"]).execute();
    await db.schema
      .createTable("attachment_chunks")
      .addColumn("attachment_id", "integer", (c) => c.notNull().references("attachments.id").onDelete("cascade"))
      .addColumn("seq", "integer", (c) => c.notNull())
      .addColumn("data", blob, (c) => c.notNull())
      .addPrimaryKeyConstraint("attachment_chunks_pk", ["attachment_id", "seq"])
      .execute();

    await withId(db.schema.createTable("raw_items"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("type", "text", (c) => c.notNull())
      .addColumn("event_id", "text")
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("payload", blob, (c) => c.notNull())
      .execute();
  },
};
