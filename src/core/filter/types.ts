/**
 * The event fields inbound filters read, shaped as the SDKs send them
 * (docs/protocol.md#event-payload; develop.sentry.dev "event payloads").
 *
 * Nothing here is validated: an event is attacker-controlled JSON, so any field may be
 * missing, null, a number, an array or a huge string. The types document the expected
 * shape only; filters read the event through `read.ts`, which re-checks every value at
 * run time and never throws.
 */

/** A list of `[name, value]` pairs: how `request.headers` and `tags` may also arrive. */
export type KeyValuePairs = readonly (readonly [string, string])[];

export interface FilterableFrame {
  abs_path?: string;
  filename?: string;
  function?: string;
  module?: string;
  /** 1-based; the browser SDK reports 0 for the synthetic frame of a muted cross-origin error. */
  lineno?: number;
  colno?: number;
}

export interface FilterableException {
  type?: string;
  value?: string;
  module?: string;
  /** Frames run oldest to newest: the last one is where the error was thrown. */
  stacktrace?: { frames?: FilterableFrame[] };
}

export interface FilterableLogEntry {
  formatted?: string;
  message?: string;
}

export interface FilterableEvent {
  type?: string;
  platform?: string;
  level?: string;
  logger?: string;
  transaction?: string;
  release?: string;
  /** A plain string from the SDKs; some older clients send the log entry object here. */
  message?: string | FilterableLogEntry;
  logentry?: FilterableLogEntry;
  /** `{ values: [...] }`, or the bare list (both are accepted by Relay). */
  exception?: { values?: FilterableException[] } | FilterableException[];
  request?: { url?: string; headers?: Readonly<Record<string, string>> | KeyValuePairs };
  user?: { ip_address?: string };
  /** Relay fills `contexts.browser` from the user agent; some SDKs send it themselves. */
  contexts?: { browser?: { name?: string; version?: string }; [context: string]: unknown };
  sdk?: { name?: string; version?: string };
  tags?: Readonly<Record<string, string>> | KeyValuePairs;
  /** Every other event field: allowed, and ignored by the filters. */
  [field: string]: unknown;
}

/**
 * Why an event was dropped, recorded as its outcome reason. Names follow Sentry's
 * filter outcome reasons where one exists (Relay `FilterStatKey`); `script-error` and
 * `resize-observer` are Telltale's own (PRODUCT.md fact 8).
 */
export const FILTER_REASONS = [
  "release-version",
  "error-message",
  "localhost",
  "browser-extensions",
  "legacy-browsers",
  "web-crawlers",
  "script-error",
  "resize-observer",
] as const;

export type FilterReason = (typeof FILTER_REASONS)[number];

/**
 * Browser families of the legacy-browser filter; the ids are Sentry's `legacy-browser`
 * subfilter names (docs.sentry.io/api/projects/update-an-inbound-data-filter/).
 */
export type BrowserFamily = "ie" | "edge" | "safari" | "firefox" | "chrome" | "opera" | "opera_mini" | "android";

/** Events from `browser` at major version `maxMajorVersion` or lower count as legacy. */
export interface LegacyBrowserRule {
  browser: BrowserFamily;
  maxMajorVersion: number;
}

/** A project's inbound filters. Defaults: `DEFAULT_INBOUND_FILTER_CONFIG` in `config.ts`. */
export interface InboundFilterConfig {
  /** Cross-origin "Script error." reports that carry no usable stack trace. */
  scriptError: boolean;
  /** "ResizeObserver loop limit exceeded" / "… completed with undelivered notifications". */
  resizeObserver: boolean;
  /** Errors thrown by browser extensions and known injected third-party scripts. */
  browserExtensions: boolean;
  /** Events whose user IP or page URL is the local machine. */
  localhost: boolean;
  /** Events whose user agent is a known crawler, bot or uptime checker. */
  webCrawlers: boolean;
  /** Events from the browser versions listed in `legacyBrowserRules`. */
  legacyBrowsers: boolean;
  legacyBrowserRules: readonly LegacyBrowserRule[];
  /** Case-insensitive globs (`*`, `?`) on "Type: value", the value and the message. */
  errorMessages: readonly string[];
  /** Case-sensitive globs (`*`, `?`) on the event's release. */
  releases: readonly string[];
}

/** The shape every filter file exports. */
export type InboundFilter = (event: FilterableEvent, cfg: InboundFilterConfig) => FilterReason | null;
