/**
 * Scrubbing for the item types that are not events: logs, span v2 items, user reports,
 * check-ins and session attributes. Each applies the project's event rules (scrub.ts: key
 * names, text rules, extra sensitive fields, safe fields, IP removal) to the parts of its item
 * that carry user data, in place, before any row is built from it — so nothing stored and
 * nothing shown (trace page, logs, feedback) holds the secret. Sentry scrubs these item types
 * server-side with the same settings (https://docs.sentry.io/security-legal-pii/scrubbing/server-side-scrubbing/).
 *
 * Transactions and feedback events are events: normalization scrubs them (scrub.ts), span
 * descriptions, span data and the feedback's name and message included. Attachments, replays
 * and profiles are stored as received (README, "Security"), an attachment's file name aside.
 */
import { FILTERED } from "./limits";
import { createScrubber, resolveScrubOptions, type Scrubber, type ScrubOptions } from "./scrub";
import type { JsonValue } from "./types";

type Raw = Record<string, unknown>;
export interface Scrubbed {
  /** Values filtered or removed. */
  scrubbed: number;
}

/** A value read by `JSON.parse` is JSON: the one cast, at the edge. */
const fromJson = (value: unknown): JsonValue => value as JsonValue;
const isRaw = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Attributes that hold the client's address (OpenTelemetry's `client.address`, the SDKs'
 * `user.ip_address`, forwarding headers as `http.request.header.*`), removed when the project
 * does not store IP addresses.
 */
const IP_ATTRIBUTES = new Set(
  ["client.address", "user.ip_address", "http.client_ip"].concat(
    ["x-forwarded-for", "x-real-ip", "forwarded", "cf-connecting-ip", "true-client-ip", "x-client-ip"].map(
      (h) => `http.request.header.${h}`,
    ),
  ),
);

/** Cookie headers as attributes are filtered whole: they carry session tokens under any cookie name. */
const COOKIE_ATTRIBUTES = new Set(["http.request.header.cookie", "http.response.header.set-cookie"]);

/** A log's template parameters (https://develop.sentry.dev/sdk/telemetry/logs/#default-attributes). */
const PARAMETER_PREFIX = "sentry.message.parameter.";

class ItemRun {
  readonly scrubber: Scrubber | null;
  readonly storeIps: boolean;
  removed = 0;

  constructor(options: Partial<ScrubOptions>) {
    const resolved = resolveScrubOptions(options);
    this.scrubber = createScrubber(resolved);
    this.storeIps = resolved.storeIpAddresses;
  }

  get result(): Scrubbed {
    return { scrubbed: this.removed + (this.scrubber?.count ?? 0) };
  }

  text(holder: Raw, key: string): void {
    const value = holder[key];
    if (this.scrubber && typeof value === "string") holder[key] = this.scrubber.text(value);
  }

  /**
   * Typed attributes (`{ "key": { "value": …, "type": "string" } }`, the logs and span v2
   * protocols: https://develop.sentry.dev/sdk/telemetry/spans/span-protocol/): a sensitive key
   * filters the value and keeps the entry, so readers still find `type` and `value`. `message`
   * is a log body before and after scrubbing, for its template parameters.
   */
  attributes(attributes: Raw, message?: { before: string; after: string }): void {
    for (const key of Object.keys(attributes)) {
      const lower = key.toLowerCase();
      if (!this.storeIps && IP_ATTRIBUTES.has(lower)) {
        delete attributes[key];
        this.removed++;
        continue;
      }
      const s = this.scrubber;
      const kind = s?.classify(key);
      if (!s || kind === "safe") continue;
      const entry = attributes[key];
      const typed = isRaw(entry) && "value" in entry;
      const value = fromJson(typed ? entry.value : entry);
      let next: JsonValue;
      if (kind === "sensitive" || COOKIE_ATTRIBUTES.has(lower)) next = s.filtered(value);
      else if (message && key.startsWith(PARAMETER_PREFIX)) next = s.param(value, message.before, message.after);
      else next = s.value(value);
      if (!typed) {
        attributes[key] = next;
        continue;
      }
      entry.value = next;
      if (next === FILTERED && typeof value !== "string") entry.type = "string";
    }
  }

  /** Free-form fields by the event rules: sensitive keys filtered, strings by the text rules. */
  fields(holder: Raw, skip: ReadonlySet<string>): void {
    const s = this.scrubber;
    if (!s) return;
    for (const key of Object.keys(holder)) {
      if (skip.has(key)) continue;
      const kind = s.classify(key);
      if (kind === "safe") continue;
      const value = fromJson(holder[key]);
      holder[key] = kind === "sensitive" ? s.filtered(value) : s.value(value);
    }
  }
}

/** A log item (https://develop.sentry.dev/sdk/telemetry/logs/): its body and attributes. */
export function scrubLog(log: Raw, options: Partial<ScrubOptions> = {}): Scrubbed {
  const run = new ItemRun(options);
  const before = typeof log.body === "string" ? log.body : "";
  run.text(log, "body");
  const after = typeof log.body === "string" ? log.body : "";
  if (isRaw(log.attributes)) run.attributes(log.attributes, { before, after });
  return run.result;
}

/** One span v2 item: its name (the label on the trace page) and attributes. */
export function scrubSpanV2(span: Raw, options: Partial<ScrubOptions> = {}): Scrubbed {
  const run = new ItemRun(options);
  run.text(span, "name");
  if (isRaw(span.attributes)) run.attributes(span.attributes);
  return run.result;
}

/** Every span of a span v2 container; entries that are not objects are left to the digest to count. */
export function scrubSpans(items: readonly unknown[], options: Partial<ScrubOptions> = {}): Scrubbed {
  let scrubbed = 0;
  for (const item of items) if (isRaw(item)) scrubbed += scrubSpanV2(item, options).scrubbed;
  return { scrubbed };
}

const USER_REPORT_KEPT = new Set(["event_id", "email"]);

/**
 * The older `user_report` item (https://develop.sentry.dev/sdk/data-model/envelope-items/):
 * name and comments by the text rules, other fields by the event rules. The email is how the
 * team answers the reporter, so it is kept, as the user's email on an event is: Sentry's default
 * scrubbers hold no email rule. Listing `email` as a sensitive field filters it.
 */
export function scrubUserReport(report: Raw, options: Partial<ScrubOptions> = {}): Scrubbed {
  const run = new ItemRun(options);
  run.fields(report, USER_REPORT_KEPT);
  if (run.scrubber?.classify("email") === "sensitive" && typeof report.email === "string") {
    report.email = run.scrubber.filtered(report.email);
  }
  return run.result;
}

/** Fields a check-in is matched to its monitor by: identifiers, never user data. */
const CHECK_IN_KEPT = new Set(["check_in_id", "monitor_slug", "status"]);

/** A check-in (https://develop.sentry.dev/sdk/telemetry/check-ins/): contexts, config and the rest. */
export function scrubCheckIn(checkIn: Raw, options: Partial<ScrubOptions> = {}): Scrubbed {
  const run = new ItemRun(options);
  run.fields(checkIn, CHECK_IN_KEPT);
  return run.result;
}

/**
 * Session attributes (https://develop.sentry.dev/sdk/telemetry/sessions/): release and
 * environment by the text rules, as on events, so the two still match; the IP address removed
 * when IPs are not stored. The user agent is left alone, as on events.
 */
export function scrubSessionAttrs(attrs: Raw, options: Partial<ScrubOptions> = {}): Scrubbed {
  const run = new ItemRun(options);
  run.text(attrs, "release");
  run.text(attrs, "environment");
  if (!run.storeIps && attrs.ip_address !== undefined) {
    delete attrs.ip_address;
    run.removed++;
  }
  return run.result;
}

/**
 * An attachment's file name (its item header's `filename`), shown on the event's page: by the
 * text rules, as any string of an event, since SDKs name files after what they hold
 * (`password=…`, a card number).
 */
export function scrubFileName(name: string, options: Partial<ScrubOptions> = {}): string {
  const scrubber = createScrubber(resolveScrubOptions(options));
  return scrubber ? scrubber.text(name) : name;
}
