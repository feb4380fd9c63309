import { type ItemHeader } from "./headers";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Byte and count caps the parser enforces while it reads. Defaults follow Relay's `limits`
 * (docs/protocol.md#size-limits, relay-config `config.rs` and the per-class table of `utils/sizes.rs`);
 * the settings table may lower them. "Bytes" are payload bytes after decompression.
 */
export interface EnvelopeLimits {
  /** The whole envelope. Relay `max_envelope_size` 200 MiB. */
  readonly maxEnvelopeBytes: number;
  /** Items in one envelope. Telltale's own: Relay has none, real envelopes hold a few hundred at most. */
  readonly maxItemsCount: number;
  /** One header line. Telltale's own: Relay holds the whole envelope in memory, we must not. */
  readonly maxHeaderBytes: number;
  /** event, security, raw_security, nel, replay_event, feedback, user_report, form_data. Relay `max_event_size` 1 MiB. */
  readonly maxEventBytes: number;
  /** Relay applies `max_event_size` (1 MiB) to transactions too. */
  readonly maxTransactionBytes: number;
  /** One attachment or unreal_report. Relay `max_attachment_size` 200 MiB. */
  readonly maxAttachmentBytes: number;
  /** All attachments together. Relay `max_attachments_size` 200 MiB. */
  readonly maxAttachmentsBytes: number;
  /** Relay `max_attachment_count` 30. */
  readonly maxAttachmentsCount: number;
  /** One session/sessions item, and all of them together. Relay `max_sessions_size` 10 MiB. */
  readonly maxSessionsBytes: number;
  /** Relay `max_session_count` 100. */
  readonly maxSessionsCount: number;
  /** Relay `max_client_reports_size` 100 KiB (the develop docs say 4 KiB). */
  readonly maxClientReportBytes: number;
  /** Relay `max_client_reports_count` 100. */
  readonly maxClientReportsCount: number;
  /** Relay `max_check_in_size` 100 KiB. */
  readonly maxCheckInBytes: number;
  /** profile and profile_chunk. Relay `max_profile_size` 50 MiB. */
  readonly maxProfileBytes: number;
  /** replay_recording and replay_video as sent (compressed). Relay `max_replay_compressed_size` 10 MiB. */
  readonly maxReplayBytes: number;
  /** One span; in a container, the average span. Relay `max_span_size` 10 MiB. */
  readonly maxSpanBytes: number;
  /** Legacy one-span-per-item `span`/`otel_span` items. Relay `max_standalone_span_count` 25. */
  readonly maxStandaloneSpansCount: number;
  /** One log; in a container, the average log. Relay `max_log_size` 2 MiB. */
  readonly maxLogBytes: number;
  /** One metric; in a container, the average metric. Relay `max_trace_metric_size` 1 MiB. */
  readonly maxTraceMetricBytes: number;
  /** A whole span/log/trace_metric container item. Relay `max_container_size` 12 MiB. */
  readonly maxContainerBytes: number;
  /** Relay `max_statsd_size` 1 MiB. */
  readonly maxStatsdBytes: number;
  /** Relay `max_metric_buckets_size` 1 MiB. */
  readonly maxMetricBucketsBytes: number;
}

export type LimitName = keyof EnvelopeLimits;

export const DEFAULT_ENVELOPE_LIMITS: EnvelopeLimits = Object.freeze({
  maxEnvelopeBytes: 200 * MiB,
  maxItemsCount: 1000,
  maxHeaderBytes: 64 * KiB,
  maxEventBytes: 1 * MiB,
  maxTransactionBytes: 1 * MiB,
  maxAttachmentBytes: 200 * MiB,
  maxAttachmentsBytes: 200 * MiB,
  maxAttachmentsCount: 30,
  maxSessionsBytes: 10 * MiB,
  maxSessionsCount: 100,
  maxClientReportBytes: 100 * KiB,
  maxClientReportsCount: 100,
  maxCheckInBytes: 100 * KiB,
  maxProfileBytes: 50 * MiB,
  maxReplayBytes: 10 * MiB,
  maxSpanBytes: 10 * MiB,
  maxStandaloneSpansCount: 25,
  maxLogBytes: 2 * MiB,
  maxTraceMetricBytes: 1 * MiB,
  maxContainerBytes: 12 * MiB,
  maxStatsdBytes: 1 * MiB,
  maxMetricBucketsBytes: 1 * MiB,
});

/** Items whose sizes and counts add up against one shared cap. */
export type LimitGroup = "attachments" | "sessions" | "client_reports" | "standalone_spans";

/** What one item may weigh: the payload cap and, for some types, a running total and a count. */
export interface ItemBudget {
  /** Max payload bytes, or null when only the envelope cap applies (unknown types). */
  readonly maxBytes: number | null;
  /** The limit to name when `maxBytes` is crossed. */
  readonly bytesLimit: LimitName;
  readonly group: LimitGroup | null;
  readonly groupBytesLimit: LimitName | null;
  readonly groupCountLimit: LimitName | null;
}

function fixed(limits: EnvelopeLimits, name: LimitName): ItemBudget {
  return { maxBytes: limits[name], bytesLimit: name, group: null, groupBytesLimit: null, groupCountLimit: null };
}

function grouped(limits: EnvelopeLimits, name: LimitName, group: LimitGroup, total: LimitName | null, count: LimitName): ItemBudget {
  return { maxBytes: limits[name], bytesLimit: name, group, groupBytesLimit: total, groupCountLimit: count };
}

/**
 * A container holds `item_count` items; Relay checks the average item against the per-item
 * limit and the whole against `max_container_size`. Both are one byte cap we can check while
 * streaming: min(container cap, count × per-item cap).
 */
function container(limits: EnvelopeLimits, perItem: LimitName, itemCount: number): ItemBudget {
  const byAverage = Math.max(1, itemCount) * limits[perItem];
  if (byAverage < limits.maxContainerBytes) return { ...fixed(limits, perItem), maxBytes: byAverage };
  return fixed(limits, "maxContainerBytes");
}

/** The budget for one item, from its header (the class table of Relay's `utils/sizes.rs`, docs/protocol.md#size-limits). */
export function itemBudget(header: ItemHeader, limits: EnvelopeLimits): ItemBudget {
  const count = header.itemCount;
  switch (header.knownType) {
    case "transaction":
      return fixed(limits, "maxTransactionBytes");
    case "event":
    case "security":
    case "raw_security":
    case "nel":
    case "replay_event":
    case "feedback":
    case "user_report":
    case "form_data":
      return fixed(limits, "maxEventBytes");
    case "attachment":
    case "unreal_report":
      return grouped(limits, "maxAttachmentBytes", "attachments", "maxAttachmentsBytes", "maxAttachmentsCount");
    case "session":
    case "sessions":
      return grouped(limits, "maxSessionsBytes", "sessions", "maxSessionsBytes", "maxSessionsCount");
    case "client_report":
      return grouped(limits, "maxClientReportBytes", "client_reports", null, "maxClientReportsCount");
    case "check_in":
      return fixed(limits, "maxCheckInBytes");
    case "profile":
    case "profile_chunk":
      return fixed(limits, "maxProfileBytes");
    case "replay_recording":
    case "replay_video":
      return fixed(limits, "maxReplayBytes");
    case "span":
    case "otel_span":
      if (count !== undefined) return container(limits, "maxSpanBytes", count);
      return grouped(limits, "maxSpanBytes", "standalone_spans", null, "maxStandaloneSpansCount");
    case "log":
    case "otel_log":
      return count === undefined ? fixed(limits, "maxLogBytes") : container(limits, "maxLogBytes", count);
    case "trace_metric":
      return count === undefined ? fixed(limits, "maxTraceMetricBytes") : container(limits, "maxTraceMetricBytes", count);
    case "statsd":
      return fixed(limits, "maxStatsdBytes");
    case "metric_buckets":
      return fixed(limits, "maxMetricBucketsBytes");
    case null:
      return { maxBytes: null, bytesLimit: "maxEnvelopeBytes", group: null, groupBytesLimit: null, groupCountLimit: null };
  }
}
