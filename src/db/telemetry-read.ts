import type { Kysely } from "kysely";
import type { EventAttachment, EventPage, EventPosition, StoredEvent, TelemetryReader, TraceRows } from "../core/ports/telemetry-read";
import type { DB } from "./schema";

/** The TelemetryReader over the main database, SQLite or PostgreSQL. */
export class KyselyTelemetryReader implements TelemetryReader {
  constructor(private readonly db: Kysely<DB>) {}

  issueEvents(issueId: number, page: EventPage): Promise<StoredEvent[]> {
    return this.eventsPage("issue_id", issueId, page);
  }

  projectEvents(projectId: number, page: EventPage): Promise<StoredEvent[]> {
    return this.eventsPage("project_id", projectId, page);
  }

  private eventsPage(column: "issue_id" | "project_id", id: number, page: EventPage): Promise<StoredEvent[]> {
    let q = this.db.selectFrom("events").selectAll().where(column, "=", id);
    const before = page.before;
    if (before)
      q = q.where((eb) =>
        eb.or([eb("timestamp", "<", before.timestamp), eb.and([eb("timestamp", "=", before.timestamp), eb("id", "<", before.id)])]),
      );
    const after = page.after;
    if (after)
      q = q.where((eb) =>
        eb.or([eb("timestamp", ">", after.timestamp), eb.and([eb("timestamp", "=", after.timestamp), eb("id", ">", after.id)])]),
      );
    const dir = after ? "asc" : "desc";
    return q.orderBy("timestamp", dir).orderBy("id", dir).limit(page.limit).execute();
  }

  async issueEventAt(issueId: number, which: EventPosition): Promise<StoredEvent | null> {
    const dir = which === "latest" ? "desc" : "asc";
    const event = await this.db
      .selectFrom("events")
      .selectAll()
      .where("issue_id", "=", issueId)
      .orderBy("timestamp", dir)
      .orderBy("id", dir)
      .limit(1)
      .executeTakeFirst();
    return event ?? null;
  }

  async adjacentEvents(event: StoredEvent): Promise<{ previous: StoredEvent | null; next: StoredEvent | null }> {
    const issueId = event.issue_id ?? -1;
    const [previous, next] = await Promise.all([
      this.db
        .selectFrom("events")
        .selectAll()
        .where("issue_id", "=", issueId)
        .where((eb) =>
          eb.or([eb("timestamp", "<", event.timestamp), eb.and([eb("timestamp", "=", event.timestamp), eb("id", "<", event.id)])]),
        )
        .orderBy("timestamp", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst(),
      this.db
        .selectFrom("events")
        .selectAll()
        .where("issue_id", "=", issueId)
        .where((eb) =>
          eb.or([eb("timestamp", ">", event.timestamp), eb.and([eb("timestamp", "=", event.timestamp), eb("id", ">", event.id)])]),
        )
        .orderBy("timestamp", "asc")
        .orderBy("id", "asc")
        .limit(1)
        .executeTakeFirst(),
    ]);
    return { previous: previous ?? null, next: next ?? null };
  }

  async eventInProject(projectId: number, eventId: string): Promise<StoredEvent | null> {
    const event = await this.db
      .selectFrom("events")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    return event ?? null;
  }

  async trace(organizationId: number, projectIds: readonly number[] | null, traceId: string, maxSpans: number): Promise<TraceRows> {
    const { db } = this;
    // No visible project: nothing to read (and `in ()` is not SQL).
    if (projectIds !== null && projectIds.length === 0) return { transactions: [], spans: [], errors: [] };
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
        .$if(projectIds !== null, (q) => q.where("transactions.project_id", "in", projectIds ?? []))
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
        .$if(projectIds !== null, (q) => q.where("spans.project_id", "in", projectIds ?? []))
        .where("spans.trace_id", "=", traceId)
        .orderBy("spans.start_timestamp")
        .limit(maxSpans + 1)
        .execute(),
      db
        .selectFrom("events")
        .innerJoin("projects", "projects.id", "events.project_id")
        .select(["events.event_id", "events.issue_id", "projects.slug as project_slug", "events.title", "events.level", "events.timestamp"])
        .where("projects.organization_id", "=", organizationId)
        .$if(projectIds !== null, (q) => q.where("events.project_id", "in", projectIds ?? []))
        .where("events.trace_id", "=", traceId)
        .orderBy("events.timestamp")
        .limit(1000)
        .execute(),
    ]);
    return { transactions, spans, errors };
  }

  eventAttachments(projectId: number, eventId: string): Promise<EventAttachment[]> {
    return this.db
      .selectFrom("attachments")
      .select(["id", "name", "size", "content_type"])
      .where("project_id", "=", projectId)
      .where("event_id", "=", eventId)
      .where("complete", "=", 1)
      .orderBy("id")
      .execute();
  }

  async eventAttachment(projectId: number, eventId: string, attachmentId: number): Promise<EventAttachment | null> {
    const row = await this.db
      .selectFrom("attachments")
      .select(["id", "name", "size", "content_type"])
      .where("project_id", "=", projectId)
      .where("event_id", "=", eventId)
      .where("id", "=", attachmentId)
      .where("complete", "=", 1)
      .executeTakeFirst();
    return row ?? null;
  }

  async *attachmentChunks(attachmentId: number): AsyncIterable<Buffer> {
    for (let seq = 0; ; seq++) {
      const row = await this.db
        .selectFrom("attachment_chunks")
        .select("data")
        .where("attachment_id", "=", attachmentId)
        .where("seq", "=", seq)
        .executeTakeFirst();
      if (!row) return;
      yield Buffer.from(row.data);
    }
  }
}
