import type { Organization } from "../../db/schema";
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
export async function traceInOrg(ctx: Ctx, org: Organization, traceId: string): Promise<TraceView> {
  const id = traceId.toLowerCase().replaceAll("-", "");
  if (!TRACE_ID.test(id)) throw invalidInput("a trace id is 32 hexadecimal characters");
  const [transactions, spans, errors] = await Promise.all([
    ctx.db
      .selectFrom("transactions")
      .innerJoin("projects", "projects.id", "transactions.project_id")
      .select([
        "transactions.event_id",
        "transactions.project_id",
        "projects.slug",
        "transactions.name",
        "transactions.op",
        "transactions.status",
        "transactions.span_id",
        "transactions.start_timestamp",
        "transactions.timestamp",
      ])
      .where("projects.organization_id", "=", org.id)
      .where("transactions.trace_id", "=", id)
      .orderBy("transactions.start_timestamp")
      .execute(),
    ctx.db
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
      .where("projects.organization_id", "=", org.id)
      .where("spans.trace_id", "=", id)
      .orderBy("spans.start_timestamp")
      .limit(MAX_SPANS + 1)
      .execute(),
    ctx.db
      .selectFrom("events")
      .innerJoin("projects", "projects.id", "events.project_id")
      .select(["events.event_id", "events.issue_id", "projects.slug", "events.title", "events.level", "events.timestamp"])
      .where("projects.organization_id", "=", org.id)
      .where("events.trace_id", "=", id)
      .orderBy("events.timestamp")
      .limit(1000)
      .execute(),
  ]);
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
      project_slug: t.slug,
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
      project_slug: e.slug,
      title: e.title,
      level: e.level,
      timestamp: e.timestamp,
    })),
    spanCount: spans.length,
  };
}
