import type { NormalizedEvent } from "../normalize/types";
import { spanTimesValid, type TimeRange } from "../normalize/span-times";
import { num, obj, str } from "./read";
import type { SpanRecord, TransactionRecord } from "./records";

/** PRODUCT.md fact 9: at most 1000 spans per transaction (the JS SDK's MAX_SPAN_COUNT). */
export const MAX_SPANS = 1000;
const HEX16 = /^[0-9a-f]{16}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const cap = (s: string | undefined, n: number) => (s ?? "").slice(0, n);

/** The spans of a transaction event, the root span (from `contexts.trace`) first. */
export function spanRecords(projectId: number, event: NormalizedEvent, traceId: string, rootId: string): SpanRecord[] {
  const trace = event.contexts?.trace ?? {};
  const records: SpanRecord[] = [
    {
      projectId,
      traceId,
      spanId: rootId,
      parentSpanId: str(trace.parent_span_id) ?? null,
      segmentId: rootId,
      name: cap(event.transaction, 200),
      op: cap(str(trace.op) ?? "default", 64),
      status: cap(str(trace.status) ?? "ok", 64),
      startTimestamp: event.start_timestamp ?? event.timestamp,
      timestamp: event.timestamp,
      data: JSON.stringify({ is_segment: true, data: trace.data ?? null }),
    },
  ];
  for (const s of event.spans ?? []) {
    records.push({
      projectId,
      traceId: s.trace_id ?? traceId,
      spanId: s.span_id,
      parentSpanId: s.parent_span_id ?? null,
      segmentId: rootId,
      name: cap(s.description ?? s.op, 2000),
      op: cap(s.op ?? "default", 64),
      status: cap(s.status ?? "ok", 64),
      startTimestamp: s.start_timestamp,
      timestamp: s.timestamp,
      data: JSON.stringify({ data: s.data ?? null, tags: s.tags ?? null, origin: s.origin ?? null }),
    });
  }
  return records;
}

/** A span v2 attribute's value: `{ value, type }` on the wire. */
function attr(attributes: Record<string, unknown> | undefined, key: string): string | undefined {
  const a = attributes?.[key];
  return obj(a) ? (typeof a.value === "string" ? a.value : a.value === undefined ? undefined : String(a.value)) : undefined;
}

/** The time ranges of the segment spans among `items`, by span id. */
function segmentRanges(items: unknown[]): Map<string, TimeRange> {
  const ranges = new Map<string, TimeRange>();
  for (const item of items) {
    if (!obj(item) || item.is_segment !== true) continue;
    const id = str(item.span_id)?.toLowerCase();
    const start = num(item.start_timestamp);
    const end = num(item.end_timestamp) ?? num(item.timestamp);
    if (id && start !== undefined && end !== undefined) ranges.set(id, { start, end });
  }
  return ranges;
}

/**
 * Span v2 items (`application/vnd.sentry.items.span.v2+json`): each becomes a span row;
 * segment spans (`is_segment`) also stand for their transaction, so the trace view and
 * transaction lists see both SDK generations alike. A span with impossible times is dropped
 * and counted in `badTimes` (span-times.ts); its segment's range is known when the segment
 * came in the same container, otherwise only the before-2000 rule applies.
 */
export function spanV2Records(projectId: number, receivedAt: number, items: unknown[]) {
  const spans: SpanRecord[] = [];
  const segments: TransactionRecord[] = [];
  let invalid = 0;
  let badTimes = 0;
  const dropped = Math.max(0, items.length - MAX_SPANS);
  const kept = items.slice(0, MAX_SPANS);
  const ranges = segmentRanges(kept);
  for (const item of kept) {
    if (!obj(item)) {
      invalid++;
      continue;
    }
    const spanId = str(item.span_id)?.toLowerCase();
    const traceId = str(item.trace_id)?.toLowerCase();
    const start = num(item.start_timestamp);
    const end = num(item.end_timestamp) ?? num(item.timestamp);
    if (!spanId || !HEX16.test(spanId) || !traceId || !HEX32.test(traceId) || start === undefined || end === undefined) {
      invalid++;
      continue;
    }
    const attributes = obj(item.attributes) ? item.attributes : undefined;
    const op = cap(attr(attributes, "sentry.op") ?? "default", 64);
    const status = cap(str(item.status) ?? "ok", 64);
    const parent = str(item.parent_span_id)?.toLowerCase();
    const segmentId = attr(attributes, "sentry.segment.id")?.toLowerCase() ?? (item.is_segment === true ? spanId : undefined);
    if (!spanTimesValid(start, end, segmentId === undefined ? undefined : ranges.get(segmentId))) {
      badTimes++;
      continue;
    }
    const name = cap(str(item.name) ?? op, 2000);
    const data = JSON.stringify({ is_segment: item.is_segment === true, attributes: attributes ?? null });
    const dataText = data.length <= 64 * 1024 ? data : JSON.stringify({ is_segment: item.is_segment === true, _truncated: true });
    spans.push({
      projectId,
      traceId,
      spanId,
      parentSpanId: parent && HEX16.test(parent) ? parent : null,
      segmentId: segmentId ?? null,
      name,
      op,
      status,
      startTimestamp: start,
      timestamp: end,
      data: dataText,
    });
    if (item.is_segment === true) {
      segments.push({
        projectId,
        eventId: `${spanId}${"0".repeat(16)}`,
        traceId,
        spanId,
        name: cap(attr(attributes, "sentry.segment.name") ?? name, 200),
        op,
        status,
        startTimestamp: start,
        timestamp: end,
        receivedAt,
        data: dataText,
      });
    }
  }
  return { spans, segments, invalid, dropped, badTimes };
}
