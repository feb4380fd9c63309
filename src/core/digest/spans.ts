import type { NormalizedEvent } from "../normalize/types";
import { spanTimesValid, type TimeRange } from "../normalize/span-times";
import { encodePayload } from "../storage/payload";
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

/** What a container says of each segment span in it: its time range and attributes. */
interface SegmentInfo extends TimeRange {
  attributes: Record<string, unknown> | undefined;
  /** Its attributes' keys, in their stored order. */
  keys: string[];
}

/** The segment spans among `items`, by span id. */
function segmentsIn(items: unknown[]): Map<string, SegmentInfo> {
  const segments = new Map<string, SegmentInfo>();
  for (const item of items) {
    if (!obj(item) || item.is_segment !== true) continue;
    const id = str(item.span_id)?.toLowerCase();
    const start = num(item.start_timestamp);
    const end = num(item.end_timestamp) ?? num(item.timestamp);
    const attributes = obj(item.attributes) ? item.attributes : undefined;
    if (!id || start === undefined || end === undefined) continue;
    // Two segments with one id (a hostile container): a child could not tell whose attributes it shares.
    const twice = segments.has(id);
    segments.set(id, { start, end, attributes: twice ? undefined : attributes, keys: attributes && !twice ? Object.keys(attributes) : [] });
  }
  return segments;
}

/** Whether two attribute values (`{ value, type }` on the wire) are the same. */
function sameAttribute(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!obj(a) || !obj(b)) return false;
  let n = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k) || a[k] !== b[k] || !Object.hasOwn(b, k)) return false;
    n++;
  }
  for (const k in b) if (Object.hasOwn(b, k)) n--;
  return n === 0;
}

/**
 * A child span's attributes without those it shares with its segment span (the SDK repeats
 * the release, environment, SDK and segment name on every span: ~85 % of a @sentry/node
 * span's attribute bytes). `shared` says which of the segment's attributes, in the order of
 * its stored `attributes`, the child had with the same value: hex digit k (from the left)
 * holds keys 4k to 4k+3, its bit b (value 2^b) key 4k+b; "" when none. `spanAttributes` puts
 * them back.
 */
function withoutSegmentAttributes(
  attributes: Record<string, unknown>,
  segment: Record<string, unknown>,
  keys: readonly string[],
): { own: Record<string, unknown>; shared: string } {
  const sharedKeys = new Set<string>();
  let shared = "";
  let digit = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (Object.hasOwn(attributes, key) && sameAttribute(attributes[key], segment[key])) {
      sharedKeys.add(key);
      digit |= 1 << (i % 4);
    }
    if (i % 4 === 3 || i === keys.length - 1) {
      shared += digit.toString(16);
      digit = 0;
    }
  }
  if (sharedKeys.size === 0) return { own: attributes, shared: "" };
  // Without a prototype, every key (`__proto__` included: attacker-controlled) is an own property.
  const own: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(attributes)) if (!sharedKeys.has(key)) own[key] = attributes[key];
  return { own, shared };
}

/** What a stored span's `data` holds (span v2): its own attributes and which it shares with its segment. */
interface StoredSpanData {
  is_segment?: boolean;
  attributes?: Record<string, unknown> | null;
  segment_attributes?: string;
}

/**
 * A span v2's attributes as the SDK sent them, from its stored `data` and, when it shares
 * attributes with its segment (`segment_attributes`), the segment span's stored `data`.
 */
export function spanAttributes(data: string, segmentData: string | null): Record<string, unknown> | null {
  const span = JSON.parse(data) as StoredSpanData;
  const shared = span.segment_attributes;
  const segment = shared && segmentData !== null ? (JSON.parse(segmentData) as StoredSpanData).attributes : null;
  if (!shared || !segment) return span.attributes ?? null;
  const inherited = Object.entries(segment).filter((_, i) => (parseInt(shared[i >> 2] ?? "0", 16) & (1 << (i % 4))) !== 0);
  return Object.fromEntries([...inherited, ...Object.entries(span.attributes ?? {})]);
}

/** A span's stored data: at most 64 KiB of attributes (its own only, when its segment is known). */
function spanData(isSegment: boolean, attributes: Record<string, unknown> | undefined, segment: SegmentInfo | undefined): string {
  let data: string;
  // Only a segment whose own data was stored whole can stand in for its children's attributes.
  if (attributes && segment?.attributes && storedWhole(segment.attributes)) {
    const { own, shared } = withoutSegmentAttributes(attributes, segment.attributes, segment.keys);
    data = JSON.stringify(
      shared === "" ? { is_segment: false, attributes } : { is_segment: false, attributes: own, segment_attributes: shared },
    );
  } else data = JSON.stringify({ is_segment: isSegment, attributes: attributes ?? null });
  return data.length <= MAX_SPAN_DATA ? data : JSON.stringify({ is_segment: isSegment, _truncated: true });
}

const MAX_SPAN_DATA = 64 * 1024;
/** Segments' attributes by whether their stored data fits (each segment is measured once). */
const fitsCache = new WeakMap<Record<string, unknown>, boolean>();
function storedWhole(attributes: Record<string, unknown>): boolean {
  let fits = fitsCache.get(attributes);
  if (fits === undefined) {
    fits = JSON.stringify({ is_segment: true, attributes }).length <= MAX_SPAN_DATA;
    fitsCache.set(attributes, fits);
  }
  return fits;
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
  const segmentSpans = segmentsIn(kept);
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
    const segment = segmentId === undefined ? undefined : segmentSpans.get(segmentId);
    if (!spanTimesValid(start, end, segment)) {
      badTimes++;
      continue;
    }
    const name = cap(str(item.name) ?? op, 2000);
    const dataText = spanData(item.is_segment === true, attributes, item.is_segment === true ? undefined : segment);
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
        kind: "segment",
        // Its own span and its children in this container, which are pushed below as they come.
        spans: [],
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
        payload: encodePayload(dataText),
      });
    }
  }
  // A segment sent twice in one container (a hostile one) leaves its spans with the first.
  const byId = new Map<string, TransactionRecord>();
  for (const t of segments) if (!byId.has(t.spanId)) byId.set(t.spanId, t);
  for (const span of spans) if (span.segmentId !== null) byId.get(span.segmentId)?.spans.push(span);
  return { spans, segments, invalid, dropped, badTimes };
}
