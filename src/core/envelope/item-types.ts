/**
 * Envelope item types Telltale knows (docs/protocol.md#item-types: Relay's `ItemType`, plus `otel_log` and
 * `otel_span` from earlier Relay versions). Anything else is an unknown type: the spec says to
 * skip and retain it, so the parser passes it through and never fails on it.
 */
export const ITEM_TYPES = [
  "event",
  "transaction",
  "attachment",
  "session",
  "sessions",
  "client_report",
  "user_report",
  "feedback",
  "check_in",
  "span",
  "log",
  "profile",
  "profile_chunk",
  "replay_event",
  "replay_recording",
  "replay_video",
  "statsd",
  "metric_buckets",
  "trace_metric",
  "security",
  "raw_security",
  "nel",
  "form_data",
  "unreal_report",
  "otel_log",
  "otel_span",
] as const;

export type ItemType = (typeof ITEM_TYPES)[number];

/** Relay-internal types that clients may not send (Relay: `InternalItemType`). */
export const INTERNAL_ITEM_TYPES: ReadonlySet<string> = new Set(["integration"]);

const KNOWN: ReadonlySet<string> = new Set(ITEM_TYPES);

export function knownItemType(type: string): ItemType | null {
  return KNOWN.has(type) ? (type as ItemType) : null;
}

/**
 * Types whose payload is handed out in chunks instead of being buffered: they can be
 * megabytes (attachments up to 200 MiB, replays and profiles up to tens of MiB), and unknown
 * types have no per-item limit of their own. Everything else is small JSON, buffered whole.
 */
const STREAMED: ReadonlySet<string> = new Set<ItemType>([
  "attachment",
  "unreal_report",
  "replay_recording",
  "replay_video",
  "profile",
  "profile_chunk",
]);

export function isStreamedItemType(type: string): boolean {
  return STREAMED.has(type) || !KNOWN.has(type);
}
