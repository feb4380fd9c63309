/**
 * Turns one parsed event payload (attacker-controlled JSON) into a bounded, typed
 * `NormalizedEvent`: every field is read defensively, cut to the limits in `limits.ts`,
 * timestamps are corrected for clock drift and clamped, and default data scrubbing runs last
 * (docs/protocol.md#trimming, #event-payload, #data-scrubbing). The payload is copied once, field by field; nothing is cloned twice.
 */
import { randomUUID } from "node:crypto";
import { normalizeBreadcrumbs } from "./breadcrumbs";
import { Budget, trimObject, trimValue } from "./databag";
import {
  normalizeContexts,
  normalizeDebugMeta,
  normalizeEnvironment,
  normalizeFingerprint,
  normalizeLevel,
  normalizeMeasurements,
  normalizeModules,
  normalizePlatform,
  normalizeRelease,
  normalizeSdk,
  normalizeTags,
} from "./fields";
import { BAGS, MAX_CHARS, TIME } from "./limits";
import { normalizeLogEntry } from "./message";
import { normalizeRequest, normalizeUser, readIp } from "./request";
import { scrubEvent, type ScrubOptions } from "./scrub";
import { keepTimelySpans } from "./span-times";
import { normalizeSpans } from "./spans";
import { normalizeExceptions, normalizeStacktrace, normalizeThreads } from "./stacktrace";
import { clampShift, clockDrift, parseTimestamp, toSeconds } from "./timestamps";
import type { JsonObject, NormalizedEvent } from "./types";
import { applyUserAgent } from "./user-agent";
import {
  cleanString,
  forEachEntry,
  isObject,
  readHexId,
  readLenientString,
  readString,
  readTrimmed,
  setKey,
  Warnings,
  type RawObject,
} from "./values";

export interface NormalizeOptions {
  /** When Telltale received the envelope or store request. */
  receivedAt: Date;
  /** The envelope header's `sent_at` (the sender's clock), for clock-drift correction. */
  sentAt?: Date | string | number | null;
  /** The connection's address, used when the SDK asks the server to infer the user's IP. */
  clientIp?: string;
  /** The envelope header's `event_id`, used when the payload has no valid one. */
  eventId?: string;
  /** Older timestamps are replaced by the received time (default: Relay's 30 days). */
  maxSecsInPast?: number;
  /** Later timestamps are replaced by the received time (default: Relay's 60 s). */
  maxSecsInFuture?: number;
  /** Project data-scrubbing settings; `false` skips scrubbing (default: scrub with defaults). */
  scrub?: Partial<ScrubOptions> | false;
}

/** Items dropped while normalizing, each count recorded as an outcome with its own reason. */
export interface Dropped {
  /** Spans over the cap (`too_many_spans`). */
  spans: number;
  /** Spans without an id or an end (`invalid_span`). */
  invalidSpans: number;
  breadcrumbs: number;
  /** Spans with impossible times (`invalid_timestamp`; see span-times.ts). */
  spanTimestamps: number;
}

export type NormalizeResult =
  | {
      ok: true;
      event: NormalizedEvent;
      /** Items dropped over the caps or as invalid, for outcome counting. */
      dropped: Dropped;
      /** How many values data scrubbing replaced or removed. */
      scrubbed: number;
      warnings: string[];
    }
  | { ok: false; reason: string };

const TRANSACTION_SOURCES = new Set(["custom", "url", "route", "view", "component", "task", "unknown", "sanitized"]);

/** Top-level keys the typed view reads, or deliberately ignores (SDK-internal metadata). */
const KNOWN_KEYS = new Set([
  "event_id",
  "type",
  "timestamp",
  "start_timestamp",
  "received",
  "platform",
  "level",
  "logger",
  "transaction",
  "transaction_info",
  "culprit",
  "release",
  "dist",
  "environment",
  "server_name",
  "message",
  "logentry",
  "exception",
  "threads",
  "stacktrace",
  "breadcrumbs",
  "contexts",
  "tags",
  "user",
  "request",
  "sdk",
  "fingerprint",
  "spans",
  "measurements",
  "extra",
  "modules",
  "debug_meta",
  "_meta",
  "sdkProcessingMetadata",
  "_metrics",
  "errors",
  "project",
  "key_id",
  "version",
]);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** `extra`: each item in its own budget (16 kB), all within 256 kB (develop docs). */
function normalizeExtra(raw: unknown, warnings: Warnings): JsonObject | undefined {
  if (!isObject(raw)) return undefined;
  const out: JsonObject = {};
  const total = new Budget(BAGS.extraTotal.bytes);
  let count = 0;
  let trimmed = false;
  const skipped = forEachEntry(raw, Number.MAX_SAFE_INTEGER, (key, value) => {
    if (total.remaining <= key.length) {
      trimmed = true;
      return;
    }
    const start = Math.min(BAGS.extraItem.bytes, total.remaining - key.length);
    const budget = new Budget(start);
    const item = trimValue(value, BAGS.extraItem, budget);
    total.remaining -= start - budget.remaining + key.length + 4;
    if (budget.trimmed) trimmed = true;
    if (item === undefined) return;
    setKey(out, cleanString(key, MAX_CHARS.summary), item);
    count++;
  });
  if (trimmed || skipped > 0) warnings.add("extra: trimmed to size");
  return count > 0 ? out : undefined;
}

/** Unknown top-level keys, kept in one small bag. */
function normalizeOther(raw: RawObject): JsonObject | undefined {
  let unknown: RawObject | undefined;
  forEachEntry(raw, Number.MAX_SAFE_INTEGER, (key, value) => {
    if (KNOWN_KEYS.has(key)) return;
    unknown ??= {};
    setKey(unknown, key, value);
  });
  if (!unknown) return undefined;
  const other = trimObject(unknown, BAGS.other);
  return other && Object.keys(other).length > 0 ? other : undefined;
}

/**
 * Backfills `user.ip_address` (develop docs: user.mdx): from `request.env.REMOTE_ADDR`, else from
 * the connection when the SDK asks for it (`sdk.settings.infer_ip: "auto"`), or — Relay's
 * legacy rule — for browser and Apple platforms that do not say.
 */
function inferUserIp(event: NormalizedEvent, clientIp: string | undefined): void {
  if (event.user?.ip_address !== undefined) return;
  let ip = readIp(event.request?.env?.REMOTE_ADDR);
  if (ip === undefined && clientIp !== undefined) {
    const infer = event.sdk?.settings?.infer_ip;
    const legacy = infer === undefined || infer === "legacy";
    if (infer === "auto" || (legacy && ["javascript", "cocoa", "objc"].includes(event.platform))) ip = readIp(clientIp);
  }
  if (ip === undefined) return;
  event.user = { ...event.user, ip_address: ip };
}

/**
 * Corrects the sender's clock (Relay: shift everything when `received - sent_at` ≥ 55 min),
 * then moves an event dated too far ahead or back to the received time. The whole event moves
 * by the same amount so breadcrumbs, spans and the transaction's duration stay consistent.
 */
function fixTimes(
  event: NormalizedEvent,
  rawTimestamp: number | undefined,
  rawStart: number | undefined,
  opts: NormalizeOptions,
  warnings: Warnings,
): void {
  const received = event.received;
  const drift = clockDrift(received, toSeconds(opts.sentAt));
  if (drift !== 0) warnings.add(`timestamps: corrected a clock drift of ${Math.round(drift)} s (sent_at)`);
  const corrected = rawTimestamp === undefined ? undefined : rawTimestamp + drift;
  const { shift, reason } = clampShift(corrected, {
    receivedAt: received,
    maxSecsInPast: opts.maxSecsInPast ?? TIME.maxSecsInPast,
    maxSecsInFuture: opts.maxSecsInFuture ?? TIME.maxSecsInFuture,
  });
  if (reason === "missing") warnings.add("timestamp: missing or invalid; the received time is used");
  if (reason === "future") warnings.add("timestamp: too far in the future; the received time is used");
  if (reason === "past") warnings.add("timestamp: older than the retention window; the received time is used");
  const offset = drift + shift;
  event.timestamp = corrected === undefined ? received : corrected + shift;

  if (event.type === "transaction") {
    if (rawStart === undefined) {
      warnings.add("start_timestamp: missing or invalid; set to the timestamp");
      event.start_timestamp = event.timestamp;
    } else {
      event.start_timestamp = Math.min(rawStart + offset, event.timestamp);
      if (rawStart + offset > event.timestamp) warnings.add("start_timestamp: after timestamp; set to the timestamp");
    }
  }
  if (offset === 0) return;
  for (const crumb of event.breadcrumbs?.values ?? []) {
    if (crumb.timestamp !== undefined) crumb.timestamp += offset;
  }
  for (const span of event.spans ?? []) {
    span.start_timestamp += offset;
    span.timestamp += offset;
  }
}

function build(raw: RawObject, opts: NormalizeOptions, warnings: Warnings): { event: NormalizedEvent; dropped: Dropped } {
  const received = opts.receivedAt.getTime() / 1000;
  let eventId = readHexId(raw.event_id, 32);
  if (eventId === undefined) {
    if (raw.event_id !== undefined) warnings.add("event_id: not 32 hex digits; replaced");
    eventId = readHexId(opts.eventId, 32) ?? randomUUID().replaceAll("-", "");
  }
  const type = raw.type === "transaction" ? "transaction" : "event";
  const event: NormalizedEvent = {
    event_id: eventId,
    type,
    timestamp: received,
    received,
    platform: normalizePlatform(raw.platform),
    level: normalizeLevel(raw.level) ?? (type === "transaction" ? "info" : "error"),
  };
  if (raw.level !== undefined && normalizeLevel(raw.level) === undefined) warnings.add("level: unknown; default used");

  const logger = readTrimmed(raw.logger, MAX_CHARS.logger);
  if (logger !== undefined) event.logger = logger;
  const transaction = readString(raw.transaction, MAX_CHARS.transaction);
  if (transaction !== undefined) event.transaction = transaction;
  if (
    isObject(raw.transaction_info) &&
    typeof raw.transaction_info.source === "string" &&
    TRANSACTION_SOURCES.has(raw.transaction_info.source)
  ) {
    event.transaction_info = { source: raw.transaction_info.source };
  }
  const culprit = readString(raw.culprit, MAX_CHARS.culprit);
  if (culprit !== undefined) event.culprit = culprit;
  const release = normalizeRelease(raw.release, warnings);
  if (release !== undefined) event.release = release;
  const dist = readTrimmed(raw.dist, MAX_CHARS.dist);
  if (dist !== undefined) event.dist = dist;
  const environment = normalizeEnvironment(raw.environment, warnings);
  if (environment !== undefined) event.environment = environment;
  const serverName = readLenientString(raw.server_name, MAX_CHARS.hash);
  if (serverName !== undefined) event.server_name = serverName;

  const logentry = normalizeLogEntry(raw.logentry, raw.message);
  if (logentry) event.logentry = logentry;
  const exception = normalizeExceptions(raw.exception, warnings);
  if (exception) event.exception = exception;
  const threads = normalizeThreads(raw.threads, warnings);
  if (threads) event.threads = threads;
  const stacktrace = normalizeStacktrace(raw.stacktrace, warnings, "stacktrace");
  if (stacktrace) event.stacktrace = stacktrace;

  const crumbs = normalizeBreadcrumbs(raw.breadcrumbs);
  if (crumbs.breadcrumbs) event.breadcrumbs = crumbs.breadcrumbs;
  if (crumbs.dropped > 0) warnings.add(`breadcrumbs: ${crumbs.dropped} dropped (only the newest are kept)`);
  let droppedSpans = 0;
  let invalidSpans = 0;
  if (type === "transaction") {
    const spans = normalizeSpans(raw.spans);
    if (spans.spans) event.spans = spans.spans;
    droppedSpans = spans.dropped;
    invalidSpans = spans.invalid;
    if (droppedSpans > 0) warnings.add(`spans: ${droppedSpans} dropped (over the limit)`);
    if (invalidSpans > 0) warnings.add(`spans: ${invalidSpans} dropped (no id or no end)`);
    const measurements = normalizeMeasurements(raw.measurements);
    if (measurements) event.measurements = measurements;
  }

  const contexts = normalizeContexts(raw.contexts, warnings);
  if (contexts) event.contexts = contexts;
  const tags = normalizeTags(raw.tags, warnings);
  if (tags) event.tags = tags;
  const request = normalizeRequest(raw.request);
  if (request) event.request = request;
  const user = normalizeUser(raw.user, opts.clientIp, warnings);
  if (user) event.user = user;
  const sdk = normalizeSdk(raw.sdk);
  if (sdk) event.sdk = sdk;
  const fingerprint = normalizeFingerprint(raw.fingerprint);
  if (fingerprint) event.fingerprint = fingerprint;
  const extra = normalizeExtra(raw.extra, warnings);
  if (extra) event.extra = extra;
  const modules = normalizeModules(raw.modules);
  if (modules) event.modules = modules;
  const debugMeta = normalizeDebugMeta(raw.debug_meta);
  if (debugMeta) event.debug_meta = debugMeta;
  const other = normalizeOther(raw);
  if (other) event.other = other;

  inferUserIp(event, opts.clientIp);
  applyUserAgent(event);
  fixTimes(event, parseTimestamp(raw.timestamp), parseTimestamp(raw.start_timestamp), opts, warnings);
  // After fixTimes: spans move with the transaction's clock-drift correction, then are judged against it.
  let spanTimestamps = 0;
  if (event.spans) {
    const timely = keepTimelySpans(event.spans, { start: event.start_timestamp ?? event.timestamp, end: event.timestamp });
    spanTimestamps = timely.dropped;
    if (timely.kept.length > 0) event.spans = timely.kept;
    else delete event.spans;
    if (spanTimestamps > 0) warnings.add(`spans: ${spanTimestamps} dropped (timestamps outside the transaction or before 2000)`);
  }
  return { event, dropped: { spans: droppedSpans, invalidSpans, breadcrumbs: crumbs.dropped, spanTimestamps } };
}

/**
 * Normalizes and scrubs one event payload. Never throws: a payload that is not a JSON object
 * (or a failure that should not happen) gives `{ ok: false, reason }`.
 */
export function normalizeEvent(raw: unknown, opts: NormalizeOptions): NormalizeResult {
  if (!isObject(raw)) return { ok: false, reason: `the event must be a JSON object, not ${describe(raw)}` };
  if (!Number.isFinite(opts.receivedAt.getTime())) return { ok: false, reason: "receivedAt is not a valid date" };
  const warnings = new Warnings();
  try {
    const { event, dropped } = build(raw, opts, warnings);
    const scrubbed = opts.scrub === false ? 0 : scrubEvent(event, opts.scrub).scrubbed;
    return { ok: true, event, dropped, scrubbed, warnings: warnings.done() };
  } catch (error) {
    // Defence in depth: every reader above is total, but a bug must not take the digest down.
    return { ok: false, reason: `the event could not be normalized: ${error instanceof Error ? error.message : String(error)}` };
  }
}
