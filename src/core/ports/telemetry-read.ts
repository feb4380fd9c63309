/**
 * What core reads back of telemetry (decision 0009): today the rows of one trace. Implemented
 * over the main database in src/db/telemetry-read.ts; a column store can implement it without
 * touching core or `app/`. Event fetches and the search compiler are still to move here.
 */
export interface TelemetryReader {
  /**
   * A trace's transactions and spans (by start) and the error events linked to it (by time),
   * within one organization's projects: at most `maxSpans + 1` spans, so the caller can tell
   * there were more, and at most 1,000 errors.
   */
  trace(organizationId: number, traceId: string, maxSpans: number): Promise<TraceRows>;
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
