import type { Insertable } from "kysely";
import type { DB } from "../../db/schema";
import { ITEM_CATEGORIES, type EnvelopeHeader, type EnvelopeItem } from "../envelope/index";
import { runInboundFilters } from "../filter/index";
import { normalizeEvent } from "../normalize/index";
import { scrubCheckIn, scrubLog, scrubSessionAttrs, scrubSpans, scrubUserReport } from "../normalize/scrub-items";
import type { NormalizedEvent } from "../normalize/types";
import type { OutcomeCount } from "../outcomes/record";
import type { ProjectOptions } from "../projects/options";
import { MAX_JSON_DEPTH, nestsDeeperThan, readJson, str, num, obj } from "./read";
import { computeGrouping, deriveIssueFields, GROUPING_CONFIG, type FingerprintRule } from "../grouping/index";
import type { GroupedEvent } from "../issues/assign";
import { spanRows, spanV2Rows } from "./spans";

/** Rows one digest batch writes, gathered in memory and inserted together. */
export interface DigestRows {
  events: Insertable<DB["events"]>[];
  /** The same events with their grouping, for the issue step. */
  grouped: GroupedEvent[];
  transactions: Insertable<DB["transactions"]>[];
  spans: Insertable<DB["spans"]>[];
  logs: Insertable<DB["logs"]>[];
  sessions: Insertable<DB["session_counts"]>[];
  feedback: Insertable<DB["feedback"]>[];
  checkIns: Insertable<DB["check_ins"]>[];
  rawItems: Insertable<DB["raw_items"]>[];
  outcomes: OutcomeCount[];
}

export const emptyRows = (): DigestRows => ({
  events: [],
  grouped: [],
  transactions: [],
  spans: [],
  logs: [],
  sessions: [],
  feedback: [],
  checkIns: [],
  rawItems: [],
  outcomes: [],
});

export interface ItemContext {
  projectId: number;
  receivedAt: number;
  header: EnvelopeHeader;
  options: ProjectOptions;
  /** The project's fingerprint rules, parsed once per batch. */
  rules: readonly FingerprintRule[];
  rows: DigestRows;
}

const HOUR = 3_600_000;
/** Data stored per log or span row: bounded, attacker-controlled JSON. */
const MAX_DATA_CHARS = 64 * 1024;
export const capJson = (value: unknown) => {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= MAX_DATA_CHARS ? text : JSON.stringify({ _truncated: true, _size: text.length });
};

function outcome(c: ItemContext, category: string, kind: OutcomeCount["outcome"], reason: string, quantity = 1): void {
  c.rows.outcomes.push({ projectId: c.projectId, category, outcome: kind, reason, quantity, at: c.receivedAt });
}

function normalize(c: ItemContext, raw: unknown, category: string): NormalizedEvent | null {
  const result = normalizeEvent(raw, {
    receivedAt: new Date(c.receivedAt),
    sentAt: c.header.sentAt ?? null,
    ...(c.header.eventId ? { eventId: c.header.eventId } : {}),
    scrub: c.options.scrubbing,
  });
  if (!result.ok) {
    outcome(c, category, "invalid", result.reason);
    return null;
  }
  if (result.dropped.spans > 0) outcome(c, "span", "invalid", "too_many_spans", result.dropped.spans);
  if (result.dropped.spanTimestamps > 0) outcome(c, "span", "invalid", "invalid_timestamp", result.dropped.spanTimestamps);
  return result.event;
}

/** An error or message event: filters, then normalization, then one `events` row. */
function digestEvent(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw)) return outcome(c, "error", "invalid", "invalid_json");
  const filtered = runInboundFilters(raw, c.options.filters);
  if (filtered) return outcome(c, "error", "filtered", filtered);
  const event = normalize(c, raw, "error");
  if (!event) return;
  if (event.contexts?.feedback) return digestFeedbackEvent(c, event);
  const grouping = computeGrouping(event, { config: GROUPING_CONFIG, rules: c.rules });
  const issue = deriveIssueFields(event, grouping);
  const row: Insertable<DB["events"]> = {
    project_id: c.projectId,
    issue_id: null,
    grouping_hash: grouping.hash,
    event_id: event.event_id,
    type: event.type,
    timestamp: event.timestamp,
    received_at: c.receivedAt,
    level: event.level,
    title: issue.title,
    release: event.release ?? null,
    environment: event.environment ?? null,
    trace_id: str(event.contexts?.trace?.trace_id) ?? null,
    data: JSON.stringify(event),
  };
  c.rows.events.push(row);
  c.rows.grouped.push({ projectId: c.projectId, event, row, hashes: grouping.hashes, config: grouping.config, issue });
  outcome(c, "error", "accepted", "");
}

/** A transaction event (older SDKs, other languages): one `transactions` row and its spans. */
function digestTransaction(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw)) return outcome(c, "transaction", "invalid", "invalid_json");
  const filtered = runInboundFilters(raw, c.options.filters);
  if (filtered) return outcome(c, "transaction", "filtered", filtered);
  const event = normalize(c, raw, "transaction");
  if (!event) return;
  const trace = event.contexts?.trace ?? {};
  const traceId = str(trace.trace_id);
  const spanId = str(trace.span_id);
  if (!traceId || !spanId) return outcome(c, "transaction", "invalid", "missing_trace_context");
  const start = event.start_timestamp ?? event.timestamp;
  c.rows.transactions.push({
    project_id: c.projectId,
    event_id: event.event_id,
    trace_id: traceId,
    span_id: spanId,
    name: (event.transaction ?? "<unlabeled transaction>").slice(0, 200),
    op: (str(trace.op) ?? "default").slice(0, 64),
    status: (str(trace.status) ?? "ok").slice(0, 64),
    start_timestamp: start,
    timestamp: event.timestamp,
    received_at: c.receivedAt,
    data: JSON.stringify(event),
  });
  c.rows.spans.push(...spanRows(c.projectId, event, traceId, spanId));
  outcome(c, "transaction", "accepted", "");
  if (event.spans?.length) outcome(c, "span", "accepted", "", event.spans.length + 1);
}

/** Feedback sent as an event (`feedback` item, or an event with `contexts.feedback`). */
function digestFeedbackEvent(c: ItemContext, event: NormalizedEvent): void {
  const fb = event.contexts?.feedback ?? {};
  c.rows.feedback.push({
    project_id: c.projectId,
    event_id: str(fb.associated_event_id) ?? event.event_id,
    name: (str(fb.name) ?? event.user?.username ?? "").slice(0, 128),
    email: (str(fb.contact_email) ?? event.user?.email ?? "").slice(0, 128),
    comments: (str(fb.message) ?? "").slice(0, 4096),
    received_at: c.receivedAt,
    data: JSON.stringify(event),
  });
  outcome(c, "feedback", "accepted", "");
}

function digestFeedback(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw)) return outcome(c, "feedback", "invalid", "invalid_json");
  const event = normalize(c, raw, "feedback");
  if (event) digestFeedbackEvent(c, event);
}

/** The older `user_report` item: `{event_id, name, email, comments}`. */
function digestUserReport(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw)) return outcome(c, "feedback", "invalid", "invalid_json");
  scrubUserReport(raw, c.options.scrubbing);
  c.rows.feedback.push({
    project_id: c.projectId,
    event_id: str(raw.event_id)?.replaceAll("-", "").toLowerCase().slice(0, 32) ?? null,
    name: (str(raw.name) ?? "").slice(0, 128),
    email: (str(raw.email) ?? "").slice(0, 128),
    comments: (str(raw.comments) ?? "").slice(0, 4096),
    received_at: c.receivedAt,
    data: capJson(raw),
  });
  outcome(c, "feedback", "accepted", "");
}

/** Span v2 containers (the JS SDKs from 10.x on): rows in `spans`; segment spans also as transactions. */
function digestSpans(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  const items = obj(raw) && Array.isArray(raw.items) ? raw.items : null;
  if (!items) return outcome(c, "span", "invalid", "invalid_span_container", item.header.itemCount ?? 1);
  scrubSpans(items, c.options.scrubbing);
  const { spans, segments, invalid, dropped, badTimes } = spanV2Rows(c.projectId, c.receivedAt, items);
  c.rows.spans.push(...spans);
  c.rows.transactions.push(...segments);
  if (spans.length) outcome(c, "span", "accepted", "", spans.length);
  if (invalid) outcome(c, "span", "invalid", "invalid_span", invalid);
  if (badTimes) outcome(c, "span", "invalid", "invalid_timestamp", badTimes);
  if (dropped) outcome(c, "span", "invalid", "too_many_spans", dropped);
}

function digestLogs(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  const items = obj(raw) && Array.isArray(raw.items) ? raw.items.slice(0, 1000) : null;
  if (!items) return outcome(c, "log_item", "invalid", "invalid_log_container", item.header.itemCount ?? 1);
  let accepted = 0;
  for (const log of items) {
    if (!obj(log)) continue;
    scrubLog(log, c.options.scrubbing);
    c.rows.logs.push({
      project_id: c.projectId,
      timestamp: num(log.timestamp) ?? c.receivedAt / 1000,
      level: (str(log.level) ?? "info").slice(0, 16),
      body: (str(log.body) ?? "").slice(0, 8192),
      trace_id: str(log.trace_id)?.slice(0, 32) ?? null,
      data: capJson(log.attributes ?? {}),
    });
    accepted++;
  }
  outcome(c, "log_item", "accepted", "", accepted);
  if (items.length > accepted) outcome(c, "log_item", "invalid", "invalid_log", items.length - accepted);
}

function sessionRow(c: ItemContext, at: number, attrs: Record<string, unknown>, status: string, quantity: number) {
  if (quantity <= 0) return;
  c.rows.sessions.push({
    project_id: c.projectId,
    hour: Math.floor(at / HOUR) * HOUR,
    release: (str(attrs.release) ?? "").slice(0, 200),
    environment: (str(attrs.environment) ?? "production").slice(0, 64),
    status,
    quantity,
  });
}

const sessionTime = (value: unknown, fallback: number) => {
  const t = typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value * 1000 : NaN;
  return Number.isFinite(t) ? t : fallback;
};

/** A single session update: `init` starts it; a final status ends it (develop docs, sessions). */
function digestSession(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw) || !obj(raw.attrs) || !str(raw.attrs.release)) return outcome(c, "session", "invalid", "invalid_session");
  scrubSessionAttrs(raw.attrs, c.options.scrubbing);
  const at = sessionTime(raw.started, c.receivedAt);
  if (raw.init === true) sessionRow(c, at, raw.attrs, "started", 1);
  const status = str(raw.status);
  if (status === "exited" || status === "crashed" || status === "abnormal" || status === "errored") sessionRow(c, at, raw.attrs, status, 1);
  if (status === "exited" && (num(raw.errors) ?? 0) > 0) sessionRow(c, at, raw.attrs, "errored", 1);
  outcome(c, "session", "accepted", "");
}

/** Pre-aggregated sessions (server SDKs): counts per started minute. */
function digestSessions(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw) || !Array.isArray(raw.aggregates) || !obj(raw.attrs)) return outcome(c, "session", "invalid", "invalid_sessions");
  scrubSessionAttrs(raw.attrs, c.options.scrubbing);
  for (const bucket of raw.aggregates.slice(0, 100)) {
    if (!obj(bucket)) continue;
    const at = sessionTime(bucket.started, c.receivedAt);
    const counts = ["exited", "errored", "abnormal", "crashed"].map((s) => [s, Math.max(0, Math.floor(num(bucket[s]) ?? 0))] as const);
    sessionRow(c, at, raw.attrs, "started", counts.reduce((sum, [, n]) => sum + n, 0));
    for (const [status, n] of counts) sessionRow(c, at, raw.attrs, status, n);
  }
  outcome(c, "session", "accepted", "");
}

/** The SDK's own account of what it dropped, merged into outcomes (develop docs, client reports). */
function digestClientReport(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw)) return;
  for (const key of ["discarded_events", "rate_limited_events", "filtered_events", "filtered_sampling_events"]) {
    const list = raw[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list.slice(0, 100)) {
      if (!obj(entry)) continue;
      const quantity = Math.floor(num(entry.quantity) ?? 0);
      const category = str(entry.category);
      if (!category || quantity <= 0 || quantity > 1e9) continue;
      outcome(c, category.slice(0, 32), "client_discard", (str(entry.reason) ?? key).slice(0, 64), quantity);
    }
  }
}

function digestCheckIn(c: ItemContext, item: EnvelopeItem): void {
  const raw = readJson(item.payload);
  if (!obj(raw) || !str(raw.check_in_id) || !str(raw.monitor_slug)) return outcome(c, "monitor", "invalid", "invalid_check_in");
  scrubCheckIn(raw, c.options.scrubbing);
  c.rows.checkIns.push({
    project_id: c.projectId,
    check_in_id: str(raw.check_in_id)!.slice(0, 64),
    monitor_slug: str(raw.monitor_slug)!.slice(0, 128),
    status: (str(raw.status) ?? "unknown").slice(0, 32),
    duration: num(raw.duration) ?? null,
    environment: str(raw.environment)?.slice(0, 64) ?? null,
    received_at: c.receivedAt,
    data: capJson(raw),
  });
  outcome(c, "monitor", "accepted", "");
}

/** Kept as received and counted: profiles, replays, metrics and item types Telltale does not read yet. */
function digestRaw(c: ItemContext, item: EnvelopeItem, category: string | null): void {
  c.rows.rawItems.push({
    project_id: c.projectId,
    type: item.header.type.slice(0, 64),
    event_id: c.header.eventId ?? null,
    received_at: c.receivedAt,
    payload: Buffer.from(item.payload),
  });
  if (category) outcome(c, category, "accepted", "", item.header.itemCount ?? 1);
}

/**
 * Item types the digest parses and walks. The others are kept as bytes (digestRaw) and never
 * walked, so their nesting cannot hurt.
 */
const READ_AS_JSON: ReadonlySet<string | null> = new Set([
  "event", "transaction", "feedback", "user_report", "span", "log", "session", "sessions", "client_report", "check_in",
]);

export function digestItem(c: ItemContext, item: EnvelopeItem): void {
  const type = item.header.knownType;
  // Before any parse or walk: one item nested thousands deep would overflow the stack.
  if (type !== null && READ_AS_JSON.has(type) && nestsDeeperThan(item.payload, MAX_JSON_DEPTH)) {
    // At least one: a container claiming `item_count: 0` is still an item that was refused.
    return outcome(c, ITEM_CATEGORIES[type] ?? "default", "invalid", "too_deep", Math.max(1, item.header.itemCount ?? 1));
  }
  switch (type) {
    case "event":
      return digestEvent(c, item);
    case "transaction":
      return digestTransaction(c, item);
    case "feedback":
      return digestFeedback(c, item);
    case "user_report":
      return digestUserReport(c, item);
    case "span":
      return digestSpans(c, item);
    case "log":
      return digestLogs(c, item);
    case "session":
      return digestSession(c, item);
    case "sessions":
      return digestSessions(c, item);
    case "client_report":
      return digestClientReport(c, item);
    case "check_in":
      return digestCheckIn(c, item);
    case "profile":
    case "profile_chunk":
      return digestRaw(c, item, "profile");
    case "replay_event":
    case "replay_recording":
    case "replay_video":
      return digestRaw(c, item, "replay");
    case null:
      return digestRaw(c, item, "unknown");
    case "statsd":
    case "metric_buckets":
      return digestRaw(c, item, "metric_bucket");
    default:
      return digestRaw(c, item, ITEM_CATEGORIES[type]);
  }
}
