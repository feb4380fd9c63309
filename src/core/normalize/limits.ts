/**
 * Limits applied while normalizing an event. Each names its source: Relay's trimming and
 * `MaxChars`/`BagSize` presets (docs/protocol.md#trimming), the develop docs' "Variable Size" list, the
 * JS SDK defaults (docs/protocol.md#sdk-defaults) that PRODUCT.md fact 9 says the server honours too, or "Telltale"
 * where no upstream value was found and we chose one. Lengths count UTF-16 code units
 * (Relay counts chars), and a cut string ends in "…" within the limit.
 */

/** A databag budget: nesting depth and estimated JSON bytes (Relay's `BagSize` presets). */
export interface BagSize {
  readonly depth: number;
  readonly bytes: number;
}

/** Relay `BagSize` presets (docs/protocol.md#trimming). */
export const BAG = {
  small: { depth: 3, bytes: 1024 },
  medium: { depth: 5, bytes: 2048 },
  large: { depth: 7, bytes: 8192 },
  larger: { depth: 7, bytes: 16_384 },
  massive: { depth: 7, bytes: 262_144 },
} as const satisfies Record<string, BagSize>;

/** String caps. */
export const MAX_CHARS = {
  /** Relay MaxChars::Message (8192); develop docs: messages 8192. Also exception values. */
  message: 8192,
  /** Relay MaxChars::Logger. */
  logger: 64,
  /** Relay MaxChars::Culprit; develop docs: culprit 200. Transaction names share it. */
  culprit: 200,
  transaction: 200,
  /** Sentry release names (Relay/Sentry: 200). */
  release: 200,
  /** Relay MaxChars::Environment. */
  environment: 64,
  /** Relay MaxChars::Distribution. */
  dist: 64,
  /** Relay tag key 200 (32 in older versions) and tag value 200; develop docs agree. */
  tagKey: 200,
  tagValue: 200,
  /** Relay MaxChars::Email. */
  email: 75,
  /** Relay MaxChars::Hash / EnumLike (128): ids, levels, ops, statuses, server names, categories. */
  hash: 128,
  enumLike: 128,
  /** Relay MaxChars::Symbol (256): function names, modules, exception types. */
  symbol: 256,
  /** Relay MaxChars::Path (256): file names and absolute paths. */
  path: 256,
  /** Relay MaxChars::Summary (1024): source lines, span descriptions, breadcrumb categories. */
  summary: 1024,
  /** Telltale: a URL long enough for real query strings; the query is split off first. */
  url: 2048,
  /** Telltale: header values hold baggage, which SDKs cap at 8192 (MAX_BAGGAGE_STRING_LENGTH). */
  headerValue: 8192,
  /** Telltale: browsers cap a cookie at about 4096 bytes. */
  cookieValue: 4096,
  /** Telltale: one query-string value. */
  queryValue: 2048,
  /** Telltale: a fingerprint entry; entries are hashed, so only their identity matters. */
  fingerprintEntry: 1024,
  /** develop docs: event id at most 36 characters (a UUID with dashes). */
  eventIdInput: 36,
} as const;

/** Counts of repeated things. */
export const MAX_COUNT = {
  /** JS SDK `DEFAULT_MAX_BREADCRUMBS` = 100 (PRODUCT.md fact 9): the newest are kept. */
  breadcrumbs: 100,
  /** JS SDK `MAX_SPAN_COUNT` = 1000 (PRODUCT.md fact 9): the first 1000 (start order) are kept. */
  spans: 1000,
  /** Relay's hard frame limit (250) per stack trace. */
  frames: 250,
  /** When trimming frames, this many of the oldest (outermost) frames are kept with the newest. */
  framesKeptFromStart: 25,
  /** Relay/Sentry `slim_frame_data`: beyond 50 frames, middle frames lose vars and context. */
  framesWithContext: 50,
  /** Telltale: pre/post source lines per frame (SDKs send 5–7). */
  contextLines: 10,
  /** Telltale: chained exceptions kept (the newest; JS LinkedErrors sends at most 5). */
  exceptions: 25,
  /** Telltale: threads kept. */
  threads: 50,
  /** Telltale: headers, cookies, query parameters each. */
  pairs: 100,
  /** Telltale: tags per event. */
  tags: 200,
  /** Telltale: contexts per event. */
  contexts: 50,
  /** Telltale: fingerprint entries. */
  fingerprint: 50,
  /** Telltale: installed modules (Python sends a few hundred). */
  modules: 1000,
  /** Telltale: SDK integrations and packages each. */
  sdkList: 200,
  /** Telltale: measurements per transaction. */
  measurements: 100,
  /** Telltale: debug_meta images (one per source map or native library). */
  debugImages: 500,
  /** JS SDK `normalizeMaxBreadth` (1000): items per array or object inside a databag. */
  bagBreadth: 1000,
  /** Telltale: warnings reported for one event. */
  warnings: 50,
} as const;

/** Which budget each databag gets. Relay names the presets; which field gets which is ours. */
export const BAGS = {
  /** develop docs: each extra item 16 kB, total 256 kB (Relay: `extra` uses `massive`). */
  extraItem: BAG.larger,
  extraTotal: BAG.massive,
  /** develop docs: contexts 8 kB each. */
  context: BAG.large,
  contextsTotal: BAG.massive,
  /** develop docs: HTTP body 8 kB. */
  requestData: BAG.large,
  requestEnv: BAG.medium,
  frameVars: BAG.large,
  breadcrumbData: BAG.medium,
  spanData: BAG.medium,
  userData: BAG.medium,
  mechanism: BAG.small,
  logParams: BAG.medium,
  sdkSettings: BAG.small,
  debugImage: BAG.small,
  /** Unknown top-level keys, kept for display only. */
  other: BAG.large,
} as const satisfies Record<string, BagSize>;

/** Time limits, in seconds. */
export const TIME = {
  /** Relay `MINIMUM_CLOCK_DRIFT`: 55 minutes, below which `sent_at` differences are latency. */
  minimumClockDrift: 55 * 60,
  /** Relay `max_secs_in_future` default: 60 s. */
  maxSecsInFuture: 60,
  /** Relay `max_secs_in_past` default: 30 days (the event retention). */
  maxSecsInPast: 30 * 24 * 3600,
  /** Telltale: a span may start or end this far outside its segment and still be kept. */
  spanSegmentSlack: 60,
  /** Telltale: spans before 2000-01-01T00:00:00Z come from a broken clock or a unit mix-up. */
  earliestSpan: 946_684_800,
} as const;

/** What replaces a scrubbed value (Relay's `[Filtered]`). */
export const FILTERED = "[Filtered]";

/** Marks a cut string (Relay appends "..."; one character keeps the limit exact). */
export const ELLIPSIS = "…";
