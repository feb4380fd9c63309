import type { EnvelopeItem } from "../../envelope/index";
import { runInboundFilters } from "../../filter/index";
import { scrubSpans } from "../../normalize/scrub-items";
import { encodePayload } from "../../storage/payload";
import { obj, readJson, str } from "../read";
import { spanRecords, spanV2Records } from "../spans";
import { claimedItems, normalizeItem, outcome, type Stage, type StageContext } from "../stage";

/** A transaction event (older SDKs, other languages): one transaction and its spans. */
export const transactionsStage: Stage = {
  name: "transactions",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "transaction", "invalid", "invalid_json");
    const filtered = runInboundFilters(raw, c.options.filters);
    if (filtered) return outcome(c, "transaction", "filtered", filtered);
    const event = normalizeItem(c, raw, "transaction");
    if (!event) return;
    const trace = event.contexts?.trace ?? {};
    const traceId = str(trace.trace_id);
    const spanId = str(trace.span_id);
    if (!traceId || !spanId) return outcome(c, "transaction", "invalid", "missing_trace_context");
    const spans = spanRecords(c.projectId, event, traceId, spanId);
    c.records.transactions.push({
      projectId: c.projectId,
      eventId: event.event_id,
      traceId,
      spanId,
      name: (event.transaction ?? "<unlabeled transaction>").slice(0, 200),
      op: (str(trace.op) ?? "default").slice(0, 64),
      status: (str(trace.status) ?? "ok").slice(0, 64),
      startTimestamp: event.start_timestamp ?? event.timestamp,
      timestamp: event.timestamp,
      receivedAt: c.receivedAt,
      kind: "event",
      spans,
      // Its spans are stored once, as span records (the trace view reads them there).
      payload: encodePayload(JSON.stringify({ ...event, spans: undefined })),
    });
    c.records.spans.push(...spans);
    outcome(c, "transaction", "accepted", "");
    // The root span (from `contexts.trace`) is stored as a span too, so it is counted with them.
    outcome(c, "span", "accepted", "", spans.length);
  },
};

/** Span v2 containers (the JS SDKs from 10.x on): spans; segment spans also as transactions. */
export const spansStage: Stage = {
  name: "spans",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    const items = obj(raw) && Array.isArray(raw.items) ? raw.items : null;
    if (!items) return outcome(c, "span", "invalid", "invalid_span_container", claimedItems(item));
    scrubSpans(items, c.options.scrubbing);
    const { spans, segments, invalid, dropped, badTimes } = spanV2Records(c.projectId, c.receivedAt, items);
    c.records.spans.push(...spans);
    c.records.transactions.push(...segments);
    outcome(c, "span", "accepted", "", spans.length);
    outcome(c, "span", "invalid", "invalid_span", invalid);
    outcome(c, "span", "invalid", "invalid_timestamp", badTimes);
    outcome(c, "span", "invalid", "too_many_spans", dropped);
  },
};
