/**
 * What core reads back of telemetry (decision 0009): the rows of one trace, the error events
 * of an issue and their attachments. Implemented over the main database in
 * src/db/telemetry-read.ts; a column store can implement it without touching core or `app/`. The search compiler is still to move here.
 */
export interface TelemetryReader {
  /** Events of an issue, newest first (oldest first with `after`), keyset-paginated by (timestamp, id). */
  issueEvents(issueId: number, page: EventPage): Promise<StoredEvent[]>;
  /** A project's events, grouped or not, in the same order and pages as an issue's. */
  projectEvents(projectId: number, page: EventPage): Promise<StoredEvent[]>;
  /** An issue's newest or oldest event (by time, then id). */
  issueEventAt(issueId: number, which: EventPosition): Promise<StoredEvent | null>;
  /** The neighbours of an event within its issue (by time, then id). */
  adjacentEvents(event: StoredEvent): Promise<{ previous: StoredEvent | null; next: StoredEvent | null }>;
  /** A project's event by its 32-hex id (lowercase, no dashes). */
  eventInProject(projectId: number, eventId: string): Promise<StoredEvent | null>;

  /**
   * A trace's transactions and spans (by start) and the error events linked to it (by time),
   * within one organization's projects — only those in `projectIds` unless it is null — at most
   * `maxSpans + 1` spans, so the caller can tell there were more, and at most 1,000 errors.
   * The limits apply to the visible rows, so hidden ones can neither be counted nor crowd them out.
   */
  trace(organizationId: number, projectIds: readonly number[] | null, traceId: string, maxSpans: number): Promise<TraceRows>;

  /** An event's complete attachments (by id); a half-received one is not shown. */
  eventAttachments(projectId: number, eventId: string): Promise<EventAttachment[]>;
  /** One complete attachment of a project's event, or null. */
  eventAttachment(projectId: number, eventId: string, attachmentId: number): Promise<EventAttachment | null>;
  /** An attachment's bytes, one stored chunk at a time, so a large one never sits in memory whole. */
  attachmentChunks(attachmentId: number): AsyncIterable<Buffer>;
}

export interface EventAttachment {
  id: number;
  name: string;
  size: number;
  content_type: string;
}

export interface TraceRows {
  transactions: {
    event_id: string;
    project_id: number;
    project_slug: string;
    name: string;
    op: string;
    status: string;
    span_id: string;
    start_timestamp: number;
    timestamp: number;
  }[];
  spans: {
    span_id: string;
    parent_span_id: string | null;
    segment_id: string | null;
    op: string;
    name: string;
    status: string;
    start_timestamp: number;
    timestamp: number;
  }[];
  errors: { event_id: string; issue_id: number | null; project_slug: string; title: string; level: string; timestamp: number }[];
}

/**
 * A stored error event: the fields indexes hold, and the event itself as stored — compressed
 * bytes, or text from before compression (src/core/storage/payload.ts `decodePayload` reads both).
 */
export interface StoredEvent {
  id: number;
  project_id: number;
  issue_id: number | null;
  grouping_hash: string | null;
  event_id: string;
  type: string;
  timestamp: number;
  received_at: number;
  level: string;
  title: string;
  release: string | null;
  environment: string | null;
  trace_id: string | null;
  data: Buffer | string;
}

export type EventPosition = "latest" | "oldest";

export interface EventPage {
  limit: number;
  /** Only events older than this one (by time, then id). */
  before?: { timestamp: number; id: number };
  /** Only events newer than this one, read oldest first (the nearest first): a previous page. */
  after?: { timestamp: number; id: number };
}
