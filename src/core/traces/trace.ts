import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { OrgScope } from "../orgs/access";
import type { TraceRows } from "../ports/telemetry-read";

const TRACE_ID = /^[0-9a-f]{32}$/;
const MAX_SPANS = 10_000;

type TransactionRow = TraceRows["transactions"][number];
type SpanRow = TraceRows["spans"][number];

/** A trace as pages and the API show it: the stored rows (TraceRows), spans nested under their transaction. */
export interface TraceView {
  traceId: string;
  transactions: (Omit<TransactionRow, "name"> & {
    transaction: string;
    spans: (Omit<SpanRow, "segment_id" | "name"> & { description: string })[];
  })[];
  errors: TraceRows["errors"];
  /** Spans beyond MAX_SPANS are left out; the count says how many there were. */
  spanCount: number;
}

/**
 * A trace across the organization's projects the user sees: its transactions with their spans,
 * and the errors linked to it.
 */
export async function traceInOrg(ctx: Ctx, scope: OrgScope, traceId: string): Promise<TraceView> {
  const id = traceId.toLowerCase().replaceAll("-", "");
  // Not 32 hexadecimal characters: no trace has that id (a 404, as for any id that cannot exist).
  if (!TRACE_ID.test(id)) throw notFound(`trace '${traceId.slice(0, 64)}' does not exist`);
  // With open membership off, the store leaves out every row of other teams' projects, spans
  // included: a trace seen only in hidden projects must answer exactly as an unknown one
  // (an empty trace), its span count too.
  const visible = scope.projectIds === null ? null : [...scope.projectIds];
  const { transactions, spans, errors } = await ctx.telemetry.trace(scope.org.id, visible, id, MAX_SPANS);
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
    transactions: transactions.map(({ name, ...t }) => ({ ...t, transaction: name, spans: bySegment.get(t.span_id) ?? [] })),
    errors,
    spanCount: spans.length,
  };
}
