import type { Ctx } from "../context";
import { invalidInput } from "../errors";

const TRACE_ID = /^[0-9a-f]{32}$/;
const MAX_SPANS = 10_000;

export interface TraceView {
  traceId: string;
  transactions: {
    event_id: string;
    project_id: number;
    project_slug: string;
    transaction: string;
    op: string;
    status: string;
    span_id: string;
    start_timestamp: number;
    timestamp: number;
    spans: {
      span_id: string;
      parent_span_id: string | null;
      op: string;
      description: string;
      status: string;
      start_timestamp: number;
      timestamp: number;
    }[];
  }[];
  errors: { event_id: string; issue_id: number | null; project_slug: string; title: string; level: string; timestamp: number }[];
  /** Spans beyond MAX_SPANS are left out; the count says how many there were. */
  spanCount: number;
}

/** A trace across the organization's projects: its transactions with their spans, and the errors linked to it. */
export async function traceInOrg(ctx: Ctx, org: { id: number }, traceId: string): Promise<TraceView> {
  const id = traceId.toLowerCase().replaceAll("-", "");
  if (!TRACE_ID.test(id)) throw invalidInput("a trace id is 32 hexadecimal characters");
  const { transactions, spans, errors } = await ctx.telemetry.trace(org.id, id, MAX_SPANS);
  const bySegment = new Map<string, TraceView["transactions"][number]["spans"]>();
  for (const s of spans.slice(0, MAX_SPANS)) {
    const key = s.segment_id ?? "";
    let list = bySegment.get(key);
    if (!list) bySegment.set(key, (list = []));
    if (s.span_id !== s.segment_id) {
      list.push({
        span_id: s.span_id,
        parent_span_id: s.parent_span_id,
        op: s.op,
        description: s.name,
        status: s.status,
        start_timestamp: s.start_timestamp,
        timestamp: s.timestamp,
      });
    }
  }
  return {
    traceId: id,
    transactions: transactions.map((t) => ({
      event_id: t.event_id,
      project_id: t.project_id,
      project_slug: t.project_slug,
      transaction: t.name,
      op: t.op,
      status: t.status,
      span_id: t.span_id,
      start_timestamp: t.start_timestamp,
      timestamp: t.timestamp,
      spans: bySegment.get(t.span_id) ?? [],
    })),
    errors: errors.map((e) => ({
      event_id: e.event_id,
      issue_id: e.issue_id,
      project_slug: e.project_slug,
      title: e.title,
      level: e.level,
      timestamp: e.timestamp,
    })),
    spanCount: spans.length,
  };
}
