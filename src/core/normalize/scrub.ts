/**
 * Server-side data scrubbing, on by default like Sentry's (docs/protocol.md#data-scrubbing; docs.sentry.io
 * "Server-Side Data Scrubbing"). Runs in place on a normalized event, which the normalizer
 * owns, so no copy is made.
 *
 * - A value whose key looks sensitive (password, secret, api_key, token, auth, credentials,
 *   private keys, session and CSRF cookies…) becomes "[Filtered]", whatever it holds. Keys match
 *   case-insensitively, in nested objects and in name/value pairs (headers, cookies, query, tags).
 * - Inside any other string, only the secret is replaced: card numbers, private-key bodies,
 *   bearer tokens, URL passwords and `key=value` pairs with a sensitive key.
 * - `extraSensitiveFields` are matched like the defaults, and a string value that contains one
 *   is filtered whole (Sentry's documented behaviour). `safeFields` are never scrubbed.
 * - `storeIpAddresses: false` removes the user's IP and the request's client-address fields.
 */
import { FILTERED } from "./limits";
import { type Counter, scrubCardNumbers, scrubText } from "./sensitive-text";
import type { Frame, JsonObject, JsonValue, NormalizedEvent, Pairs, Stacktrace } from "./types";

export interface ScrubOptions {
  /** Sentry's "Data Scrubber": the master switch for everything but IP removal. */
  scrubData: boolean;
  /** Sentry's "Use Default Scrubbers": the built-in key names and text rules. */
  scrubDefaults: boolean;
  /** More key names (substrings, case-insensitive) to treat as sensitive. */
  extraSensitiveFields: readonly string[];
  /** Key names (exact, case-insensitive) never scrubbed, with everything under them. */
  safeFields: readonly string[];
  /** `false` removes `user.ip_address`, `REMOTE_ADDR` and forwarding headers. */
  storeIpAddresses: boolean;
}

export const DEFAULT_SCRUB_OPTIONS: Readonly<ScrubOptions> = Object.freeze({
  scrubData: true,
  scrubDefaults: true,
  extraSensitiveFields: [],
  safeFields: [],
  storeIpAddresses: true,
});

/**
 * Key parts that make a key sensitive wherever they appear in it: Sentry's documented default
 * list plus Relay's @password key rule (password, secret, passwd, api[-_]key, apikey, auth,
 * credentials, mysql_pwd, privatekey, private[-_]key, token), and CSRF/XSRF names.
 */
const SENSITIVE_KEY_PARTS = [
  "password",
  "passwd",
  "secret",
  "api_key",
  "api-key",
  "apikey",
  "auth",
  "credential",
  "mysql_pwd",
  "privatekey",
  "private_key",
  "private-key",
  "token",
  "bearer",
  "csrf",
  "xsrf",
  "card[number]",
];

/**
 * Keys sensitive only by their whole name: Relay's sensitive session/CSRF cookie names and
 * @password's `^otp$` / `^two[-_]factor$`, plus common session cookies of other frameworks.
 */
const SENSITIVE_KEY_NAMES = new Set([
  "sentrysid",
  "sudo",
  "su",
  "session",
  "__session",
  "sessionid",
  "user_session",
  "symfony",
  "phpsessid",
  "fasthttpsessionid",
  "mysession",
  "irissessionid",
  "_vercel_jwt",
  "_xsrf",
  "_csrf",
  "fastcsrf",
  "_iris_csrf",
  "otp",
  "two_factor",
  "two-factor",
  "jsessionid",
  "connect.sid",
  "laravel_session",
  "asp.net_sessionid",
  "session_id",
  "_session_id",
  "sid",
]);

/** Headers that carry the client's address, removed with `storeIpAddresses: false`. */
const IP_HEADERS = new Set(["X-Forwarded-For", "X-Real-Ip", "Forwarded", "Cf-Connecting-Ip", "True-Client-Ip", "X-Client-Ip"]);

/** Relay leaves the user agent alone: it is never a secret and text rules would misfire on it. */
const TEXT_SAFE_HEADERS = new Set(["User-Agent"]);

export type KeyClass = "safe" | "sensitive" | "plain";

/**
 * AI and MCP attribute namespaces, whose names say "token" for counts (`gen_ai.usage.input_tokens`,
 * https://getsentry.github.io/sentry-conventions/attributes/gen_ai/): their values get the text
 * rules only, not the default key rule, as Sentry treats them. Extra sensitive fields still apply.
 */
const TEXT_ONLY_NAMESPACES = ["gen_ai.", "mcp."];

/**
 * Deeper than this a value cannot be checked without risking the stack, so it is filtered
 * whole. Normalized events are trimmed far shallower (limits.ts); this guards raw items.
 */
const MAX_SCRUB_DEPTH = 64;

function sensitiveKey(lower: string): boolean {
  if (TEXT_ONLY_NAMESPACES.some((ns) => lower.startsWith(ns))) return false;
  if (SENSITIVE_KEY_NAMES.has(lower)) return true;
  for (const part of SENSITIVE_KEY_PARTS) if (lower.includes(part)) return true;
  return false;
}

/**
 * Keys seen before and whether the default rules call them sensitive: events repeat the same
 * few hundred keys, and classifying one lowercases it and searches it for every key part.
 * Bounded: emptied when full, so hostile events with endless distinct keys cost memory once.
 */
const DEFAULT_CLASS = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 4096;
const MAX_REMEMBERED_KEY_CHARS = 64;

function sensitiveByDefault(key: string): boolean {
  const known = DEFAULT_CLASS.get(key);
  if (known !== undefined) return known;
  const sensitive = sensitiveKey(key.toLowerCase());
  if (key.length <= MAX_REMEMBERED_KEY_CHARS) {
    if (DEFAULT_CLASS.size >= MAX_REMEMBERED_KEYS) DEFAULT_CLASS.clear();
    DEFAULT_CLASS.set(key, sensitive);
  }
  return sensitive;
}

/** The project's scrubbing rules, bound once and applied to any number of values. */
export class Scrubber implements Counter {
  count = 0;
  private readonly safe: Set<string>;
  private readonly extra: string[];
  private readonly defaults: boolean;
  readonly isSensitive = (key: string): boolean => this.classify(key) === "sensitive";

  constructor(options: ScrubOptions) {
    this.safe = new Set(options.safeFields.map((f) => f.trim().toLowerCase()).filter((f) => f !== ""));
    this.extra = options.extraSensitiveFields.map((f) => f.trim().toLowerCase()).filter((f) => f !== "");
    this.defaults = options.scrubDefaults;
  }

  classify(key: string): KeyClass {
    // The common case, no safe or extra fields: the default rules alone, remembered per key.
    if (this.safe.size === 0 && this.extra.length === 0) return this.defaults && sensitiveByDefault(key) ? "sensitive" : "plain";
    const lower = key.toLowerCase();
    if (this.safe.has(lower)) return "safe";
    if (this.defaults && sensitiveByDefault(key)) return "sensitive";
    for (const part of this.extra) if (lower.includes(part)) return "sensitive";
    return "plain";
  }

  /**
   * A string outside any sensitive key: text rules, then the extra fields' value match.
   * `separators` is "=" for source lines, where `name: Type` is code, not a secret.
   */
  text(value: string, separators?: string): string {
    if (this.extra.length > 0) {
      const lower = value.toLowerCase();
      for (const part of this.extra) {
        if (lower.includes(part)) {
          this.count++;
          return FILTERED;
        }
      }
    }
    return this.defaults ? scrubText(value, this.isSensitive, this, separators) : value;
  }

  /** A card number sent as a JSON number (Relay scrubs `$number` too). */
  private number(value: number): JsonValue {
    if (!this.defaults || !Number.isSafeInteger(value) || value < 1e12) return value;
    const text = String(value);
    return scrubCardNumbers(text, this) === text ? value : FILTERED;
  }

  /** Replaces a value under a sensitive key; nothing to hide in null or an already filtered value. */
  filtered(value: JsonValue): JsonValue {
    if (value === null || value === FILTERED) return value;
    this.count++;
    return FILTERED;
  }

  value(value: JsonValue, depth = 0): JsonValue {
    if (typeof value === "string") return this.text(value);
    if (typeof value === "number") return this.number(value);
    if (value === null || typeof value !== "object") return value;
    if (depth >= MAX_SCRUB_DEPTH) return this.filtered(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.value(value[i] ?? null, depth + 1);
      return value;
    }
    this.bag(value, depth);
    return value;
  }

  bag(bag: JsonObject, depth = 0): void {
    for (const key in bag) {
      if (!Object.hasOwn(bag, key)) continue;
      const kind = this.classify(key);
      if (kind === "safe") continue;
      const item = bag[key] ?? null;
      bag[key] = kind === "sensitive" ? this.filtered(item) : this.value(item, depth + 1);
    }
  }

  /**
   * Message parameters (`logentry.params`, a log's `sentry.message.parameter.N`): one that
   * appeared in the message before scrubbing and is gone after it was the secret, so it goes too.
   */
  param(value: JsonValue, before: string, after: string): JsonValue {
    if (typeof value !== "string" && typeof value !== "number") return this.value(value);
    const text = String(value);
    if (text !== "" && value !== FILTERED && before.includes(text) && !after.includes(text)) return this.filtered(value);
    return this.value(value);
  }

  pairs(pairs: Pairs, textSafe?: Set<string>): void {
    for (const pair of pairs) {
      const kind = this.classify(pair[0]);
      if (kind === "safe") continue;
      if (kind === "sensitive") {
        if (pair[1] !== FILTERED && pair[1] !== "") {
          pair[1] = FILTERED;
          this.count++;
        }
      } else if (!textSafe?.has(pair[0])) {
        pair[1] = this.text(pair[1]);
      }
    }
  }

  frame(frame: Frame): void {
    if (frame.vars) this.bag(frame.vars);
    if (frame.context_line !== undefined) frame.context_line = this.text(frame.context_line, "=");
    if (frame.pre_context) frame.pre_context = frame.pre_context.map((line) => this.text(line, "="));
    if (frame.post_context) frame.post_context = frame.post_context.map((line) => this.text(line, "="));
  }

  stacktrace(stacktrace: Stacktrace | undefined): void {
    for (const frame of stacktrace?.frames ?? []) this.frame(frame);
  }

  event(event: NormalizedEvent): void {
    const { logentry } = event;
    if (logentry) {
      const before = logentry.formatted;
      logentry.formatted = this.text(before);
      if (logentry.message !== undefined) logentry.message = this.text(logentry.message);
      const params = logentry.params;
      if (Array.isArray(params)) params.forEach((p, i) => (params[i] = this.param(p, before, logentry.formatted)));
      else if (params !== null && typeof params === "object") {
        for (const key of Object.keys(params)) params[key] = this.param(params[key] ?? null, before, logentry.formatted);
      }
    }
    // The transaction name is the root span's name on the trace page.
    if (event.transaction !== undefined) event.transaction = this.text(event.transaction);
    // Sessions carry the release and environment too: both are scrubbed alike, so they still match.
    if (event.release !== undefined) event.release = this.text(event.release);
    if (event.environment !== undefined) event.environment = this.text(event.environment);
    for (const exception of event.exception?.values ?? []) {
      if (exception.value !== undefined) exception.value = this.text(exception.value);
      if (exception.mechanism?.data) this.bag(exception.mechanism.data);
      this.stacktrace(exception.stacktrace);
    }
    for (const thread of event.threads?.values ?? []) this.stacktrace(thread.stacktrace);
    this.stacktrace(event.stacktrace);
    for (const crumb of event.breadcrumbs?.values ?? []) {
      if (crumb.message !== undefined) crumb.message = this.text(crumb.message);
      if (crumb.data) this.bag(crumb.data);
    }
    for (const context of Object.values(event.contexts ?? {})) this.bag(context);
    if (event.tags) this.pairs(event.tags);
    if (event.user?.data) this.bag(event.user.data);
    const { request } = event;
    if (request) {
      if (request.url !== undefined) request.url = this.text(request.url);
      if (request.fragment !== undefined) request.fragment = this.text(request.fragment);
      if (request.query_string) this.pairs(request.query_string);
      if (request.headers) this.pairs(request.headers, TEXT_SAFE_HEADERS);
      if (request.cookies) this.pairs(request.cookies);
      if (request.data !== undefined) request.data = this.value(request.data);
      if (request.env) this.bag(request.env);
    }
    if (event.extra) this.bag(event.extra);
    for (const span of event.spans ?? []) {
      if (span.description !== undefined) span.description = this.text(span.description);
      if (span.data) this.bag(span.data);
      if (span.tags) this.bag(span.tags);
    }
    if (event.other) this.bag(event.other);
  }
}

/** Removes stored client addresses; returns how many values went. */
function removeIpAddresses(event: NormalizedEvent): number {
  let removed = 0;
  if (event.user?.ip_address !== undefined) {
    delete event.user.ip_address;
    removed++;
  }
  const request = event.request;
  if (request?.env && Object.hasOwn(request.env, "REMOTE_ADDR")) {
    delete request.env.REMOTE_ADDR;
    removed++;
  }
  if (request?.headers) {
    const kept = request.headers.filter(([name]) => !IP_HEADERS.has(name));
    removed += request.headers.length - kept.length;
    request.headers = kept;
  }
  return removed;
}

/** A project's partial options (defaults on) made whole. */
export function resolveScrubOptions(options: Partial<ScrubOptions> = {}): ScrubOptions {
  const d = DEFAULT_SCRUB_OPTIONS;
  return {
    scrubData: options.scrubData ?? d.scrubData,
    scrubDefaults: options.scrubDefaults ?? d.scrubDefaults,
    extraSensitiveFields: options.extraSensitiveFields ?? d.extraSensitiveFields,
    safeFields: options.safeFields ?? d.safeFields,
    storeIpAddresses: options.storeIpAddresses ?? d.storeIpAddresses,
  };
}

/** The scrubber for these options, or null when they filter nothing (IP removal aside). */
export function createScrubber(options: ScrubOptions): Scrubber | null {
  return options.scrubData && (options.scrubDefaults || options.extraSensitiveFields.length > 0) ? new Scrubber(options) : null;
}

/** Scrubs `event` in place and returns how many values were filtered or removed. */
export function scrubEvent(event: NormalizedEvent, options: Partial<ScrubOptions> = {}): { scrubbed: number } {
  const resolved = resolveScrubOptions(options);
  let scrubbed = resolved.storeIpAddresses ? 0 : removeIpAddresses(event);
  const scrubber = createScrubber(resolved);
  if (scrubber) {
    scrubber.event(event);
    scrubbed += scrubber.count;
  }
  return { scrubbed };
}

/**
 * The key rules and free-text rules alone, for text that is not an event (a dead letter's
 * excerpt). The default rules always apply here, whatever the project's switches say.
 */
export function textScrubber(options: Partial<ScrubOptions> = {}): { text(value: string): string; isSensitive(key: string): boolean } {
  const scrubber = new Scrubber({ ...DEFAULT_SCRUB_OPTIONS, ...options, scrubDefaults: true });
  return { text: (value) => scrubber.text(value), isSensitive: scrubber.isSensitive };
}
