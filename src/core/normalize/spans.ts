/**
 * Transaction spans (develop docs: span.mdx). At most `MAX_COUNT.spans` are kept — the JS SDK's
 * `MAX_SPAN_COUNT` of 1000 (PRODUCT.md fact 9). SDKs send spans sorted by start, so the first
 * 1000 by position are kept and the rest are counted without being read. A span without a
 * 16-hex `span_id`, a start or an end is invalid and counted too.
 */
import { BAGS, MAX_CHARS, MAX_COUNT } from "./limits";
import { trimObject } from "./databag";
import { parseTimestamp } from "./timestamps";
import type { Span } from "./types";
import { forEachEntry, isObject, readBool, readHexId, readLenientString, readNumber, readString, setKey } from "./values";

function readSpanTags(raw: unknown): Record<string, string> | undefined {
  if (!isObject(raw)) return undefined;
  const tags: Record<string, string> = {};
  let count = 0;
  forEachEntry(raw, MAX_COUNT.tags, (key, value) => {
    const v = readLenientString(value, MAX_CHARS.tagValue);
    if (key === "" || v === undefined) return;
    setKey(tags, key.slice(0, MAX_CHARS.tagKey), v);
    count++;
  });
  return count > 0 ? tags : undefined;
}

function readSpan(raw: unknown): Span | undefined {
  if (!isObject(raw)) return undefined;
  const spanId = readHexId(raw.span_id, 16);
  const start = parseTimestamp(raw.start_timestamp);
  const end = parseTimestamp(raw.timestamp);
  if (spanId === undefined || start === undefined || end === undefined) return undefined;
  const span: Span = { span_id: spanId, start_timestamp: start, timestamp: Math.max(start, end) };
  const parent = readHexId(raw.parent_span_id, 16);
  if (parent !== undefined) span.parent_span_id = parent;
  const traceId = readHexId(raw.trace_id, 32);
  if (traceId !== undefined) span.trace_id = traceId;
  const op = readString(raw.op, MAX_CHARS.enumLike);
  if (op !== undefined) span.op = op;
  const description = readString(raw.description, MAX_CHARS.summary);
  if (description !== undefined) span.description = description;
  const status = readString(raw.status, MAX_CHARS.enumLike);
  if (status !== undefined) span.status = status;
  const origin = readString(raw.origin, MAX_CHARS.enumLike);
  if (origin !== undefined) span.origin = origin;
  const exclusive = readNumber(raw.exclusive_time);
  if (exclusive !== undefined) span.exclusive_time = exclusive;
  const sameProcess = readBool(raw.same_process_as_parent);
  if (sameProcess !== undefined) span.same_process_as_parent = sameProcess;
  const tags = readSpanTags(raw.tags);
  if (tags !== undefined) span.tags = tags;
  const data = trimObject(raw.data, BAGS.spanData);
  if (data !== undefined && Object.keys(data).length > 0) span.data = data;
  return span;
}

export interface NormalizedSpans {
  spans?: Span[];
  /** Spans beyond the cap. */
  dropped: number;
  /** Spans without an id or an end, skipped. */
  invalid: number;
}

export function normalizeSpans(raw: unknown): NormalizedSpans {
  if (!Array.isArray(raw)) return { dropped: 0, invalid: 0 };
  const spans: Span[] = [];
  let invalid = 0;
  let i = 0;
  for (; i < raw.length && spans.length < MAX_COUNT.spans; i++) {
    const span = readSpan(raw[i]);
    if (span) spans.push(span);
    else invalid++;
  }
  const dropped = raw.length - i;
  return spans.length > 0 ? { spans, dropped, invalid } : { dropped, invalid };
}
