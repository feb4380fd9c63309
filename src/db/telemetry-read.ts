import type { Kysely } from "kysely";
import type { TelemetryReader, TraceRows } from "../core/ports/telemetry-read";
import type { DB } from "./schema";

/** The TelemetryReader over the main database, SQLite or PostgreSQL. */
export class KyselyTelemetryReader implements TelemetryReader {
  constructor(private readonly db: Kysely<DB>) {}

  async trace(organizationId: number, traceId: string, maxSpans: number): Promise<TraceRows> {
    const { db } = this;
    const [transactions, spans, errors] = await Promise.all([
      db
        .selectFrom("transactions")
        .innerJoin("projects", "projects.id", "transactions.project_id")
        .select([
          "transactions.event_id",
          "transactions.project_id",
          "projects.slug as project_slug",
          "transactions.name",
          "transactions.op",
          "transactions.status",
          "transactions.span_id",
          "transactions.start_timestamp",
          "transactions.timestamp",
        ])
        .where("projects.organization_id", "=", organizationId)
        .where("transactions.trace_id", "=", traceId)
        .orderBy("transactions.start_timestamp")
        .execute(),
      db
        .selectFrom("spans")
        .innerJoin("projects", "projects.id", "spans.project_id")
        .select([
          "spans.span_id",
          "spans.parent_span_id",
          "spans.segment_id",
          "spans.op",
          "spans.name",
          "spans.status",
          "spans.start_timestamp",
          "spans.timestamp",
        ])
        .where("projects.organization_id", "=", organizationId)
        .where("spans.trace_id", "=", traceId)
        .orderBy("spans.start_timestamp")
        .limit(maxSpans + 1)
        .execute(),
      db
        .selectFrom("events")
        .innerJoin("projects", "projects.id", "events.project_id")
        .select(["events.event_id", "events.issue_id", "projects.slug as project_slug", "events.title", "events.level", "events.timestamp"])
        .where("projects.organization_id", "=", organizationId)
        .where("events.trace_id", "=", traceId)
        .orderBy("events.timestamp")
        .limit(1000)
        .execute(),
    ]);
    return { transactions, spans, errors };
  }
}
