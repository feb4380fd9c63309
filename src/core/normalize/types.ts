/**
 * The typed view of an event that the rest of Telltale reads after normalization. Field names
 * follow the Sentry event payload (docs/protocol.md#event-payload) so stored events and API responses keep
 * Sentry's shape; every string, list and databag in it is bounded by `limits.ts`.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** An ordered list of name/value pairs (headers, cookies, query string, tags). */
export type Pairs = Array<[string, string]>;

export type Level = "fatal" | "error" | "warning" | "info" | "debug";
export type EventType = "event" | "transaction";

export interface LogEntry {
  /** The raw template, e.g. `"charging %s for %d items"`. */
  message?: string;
  /** The message as shown; computed from `message` and `params` when the SDK did not send it. */
  formatted: string;
  params?: JsonValue[] | JsonObject;
}

export interface Frame {
  filename?: string;
  abs_path?: string;
  function?: string;
  raw_function?: string;
  module?: string;
  package?: string;
  platform?: string;
  lineno?: number;
  colno?: number;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
  in_app?: boolean;
  vars?: JsonObject;
  instruction_addr?: string;
  symbol_addr?: string;
  image_addr?: string;
}

export interface Stacktrace {
  /** Oldest → newest: the last frame is where the error was raised. */
  frames: Frame[];
  /** `[start, end)` indices of the original frames that were dropped (Sentry's `frames_omitted`). */
  frames_omitted?: [number, number];
}

export interface Mechanism {
  type: string;
  handled?: boolean;
  synthetic?: boolean;
  description?: string;
  help_link?: string;
  exception_id?: number;
  parent_id?: number;
  is_exception_group?: boolean;
  source?: string;
  data?: JsonObject;
  meta?: JsonObject;
}

export interface ExceptionValue {
  type?: string;
  value?: string;
  module?: string;
  thread_id?: string | number;
  mechanism?: Mechanism;
  stacktrace?: Stacktrace;
  /** The stack as the SDK sent it, kept when symbolication (source maps) rewrote `stacktrace`. */
  raw_stacktrace?: Stacktrace;
}

export interface Thread {
  id?: string | number;
  name?: string;
  crashed?: boolean;
  current?: boolean;
  main?: boolean;
  state?: string;
  stacktrace?: Stacktrace;
  raw_stacktrace?: Stacktrace;
}

export interface Breadcrumb {
  timestamp?: number;
  type: string;
  category?: string;
  message?: string;
  level: Level;
  data?: JsonObject;
  origin?: string;
}

export interface Span {
  span_id: string;
  parent_span_id?: string;
  trace_id?: string;
  op?: string;
  description?: string;
  status?: string;
  origin?: string;
  start_timestamp: number;
  timestamp: number;
  exclusive_time?: number;
  same_process_as_parent?: boolean;
  tags?: Record<string, string>;
  data?: JsonObject;
}

export interface User {
  id?: string;
  email?: string;
  username?: string;
  name?: string;
  ip_address?: string;
  segment?: string;
  geo?: { city?: string; country_code?: string; region?: string; subdivision?: string };
  /** Any other keys the SDK sent (Sentry shows them as `data.*`). */
  data?: JsonObject;
}

export interface Request {
  /** Without its query string and fragment, which are split into their own fields. */
  url?: string;
  method?: string;
  query_string?: Pairs;
  fragment?: string;
  /** Header names in Title-Case (`Content-Type`); the Cookie header is moved to `cookies`. */
  headers?: Pairs;
  cookies?: Pairs;
  /** A parsed JSON or form body when it could be parsed, else the raw (trimmed) string. */
  data?: JsonValue;
  inferred_content_type?: "application/json" | "application/x-www-form-urlencoded";
  env?: JsonObject;
}

export interface Sdk {
  name?: string;
  version?: string;
  integrations?: string[];
  packages?: Array<{ name: string; version: string }>;
  settings?: JsonObject;
}

export interface Measurement {
  value: number;
  unit?: string;
}

/** One processing error on an event: a machine-readable type and what it concerns. */
export interface ProcessingError {
  /** e.g. `enrichment_timeout`, `enrichment_failed`, `enrichment_skipped`. */
  type: string;
  /** The step or enricher it concerns. */
  name?: string;
  /** A short human-readable detail. */
  value?: string;
}

export interface NormalizedEvent {
  /** 32 lowercase hex digits; generated when the payload had none. */
  event_id: string;
  type: EventType;
  /** Seconds since the epoch (float), after clock-drift correction and clamping. */
  timestamp: number;
  /** Transactions only: seconds since the epoch, never after `timestamp`. */
  start_timestamp?: number;
  /** When Telltale received the event, seconds since the epoch. */
  received: number;
  platform: string;
  level: Level;
  logger?: string;
  transaction?: string;
  transaction_info?: { source?: string };
  culprit?: string;
  release?: string;
  dist?: string;
  environment?: string;
  server_name?: string;
  /** The top-level `message` (string or object) and `logentry` folded into one. */
  logentry?: LogEntry;
  exception?: { values: ExceptionValue[] };
  threads?: { values: Thread[] };
  /** A top-level stack trace (sent with `attachStacktrace` by some SDKs). */
  stacktrace?: Stacktrace;
  breadcrumbs?: { values: Breadcrumb[] };
  /** Each context is an object; `contexts.trace` has lowercase hex `trace_id`/`span_id` when valid. */
  contexts?: Record<string, JsonObject>;
  /**
   * Tags as ordered `[key, value]` pairs: SDKs send an object or a pair list, Sentry stores a pair
   * list and its API answers `[{key, value}]`. Empty keys or values are dropped; a repeated key
   * keeps its first value.
   */
  tags?: Pairs;
  user?: User;
  request?: Request;
  sdk?: Sdk;
  fingerprint?: string[];
  spans?: Span[];
  measurements?: Record<string, Measurement>;
  extra?: JsonObject;
  modules?: Record<string, string>;
  debug_meta?: { images: JsonObject[] };
  /**
   * What went wrong while Telltale processed the event (not what the SDK sent: the normalizer
   * ignores an incoming `errors`), e.g. an enricher that ran past its time budget. The event
   * is stored as it came from the step before.
   */
  errors?: ProcessingError[];
  /**
   * Top-level keys this view does not model, trimmed to a small databag so nothing the SDK
   * sent vanishes unseen. Telltale logic never reads it; the UI may show it as raw data.
   */
  other?: JsonObject;
}
