import type { EnvelopeItem } from "../../envelope/index";
import { num, obj, readJson, str } from "../read";
import { outcome, type Stage, type StageContext } from "../stage";

const LISTS = ["discarded_events", "rate_limited_events", "filtered_events", "filtered_sampling_events"] as const;

/**
 * The data categories an SDK may name: Relay's (https://getsentry.github.io/relay/relay_base_schema/data_category/enum.DataCategory.html,
 * `feedback` being its name for user reports v2) and `internal`, which the SDKs give client reports
 * themselves (https://develop.sentry.dev/sdk/expected-features/rate-limiting/#definitions).
 */
export const CLIENT_REPORT_CATEGORIES: ReadonlySet<string> = new Set([
  "default",
  "error",
  "transaction",
  "security",
  "attachment",
  "attachment_item",
  "session",
  "profile",
  "profile_indexed",
  "profile_chunk",
  "profile_chunk_ui",
  "profile_duration",
  "profile_duration_ui",
  "replay",
  "replay_video",
  "transaction_processed",
  "transaction_indexed",
  "monitor",
  "monitor_seat",
  "span",
  "span_indexed",
  "feedback",
  "metric_bucket",
  "metric_second",
  "uptime",
  "log_item",
  "log_byte",
  "trace_metric",
  "trace_metric_byte",
  "internal",
  "unknown",
]);

/** The discard reasons of the client reports protocol (https://develop.sentry.dev/sdk/telemetry/client-reports/#discard-reasons). */
export const DISCARD_REASONS: ReadonlySet<string> = new Set([
  "queue_overflow",
  "cache_overflow",
  "buffer_overflow",
  "ratelimit_backoff",
  "network_error",
  "sample_rate",
  "before_send",
  "event_processor",
  "send_error",
  "internal_sdk_error",
  "insufficient_data",
  "backpressure",
  "ignored",
  "invalid",
  "no_parent_span",
  "callback_error",
]);

interface Discard {
  category: string;
  reason: string;
  quantity: number;
}

/** The entry as a discard the protocol defines, or why it is not one. */
function readEntry(entry: unknown): Discard | string {
  if (!obj(entry)) return "invalid_client_report_entry";
  const quantity = Math.floor(num(entry.quantity) ?? 0);
  if (quantity <= 0 || quantity > 1e9) return "invalid_client_report_entry";
  const category = str(entry.category);
  if (category === undefined || !CLIENT_REPORT_CATEGORIES.has(category)) return "unknown_client_report_category";
  const reason = str(entry.reason);
  if (reason === undefined || !DISCARD_REASONS.has(reason)) return "unknown_client_report_reason";
  return { category, reason, quantity };
}

/**
 * The SDK's own account of what it dropped, merged into outcomes as `client_discard`
 * (https://develop.sentry.dev/sdk/telemetry/client-reports/). A client report is not data of
 * its own, so it has no category. Anyone with the DSN can send one, so only the protocol's
 * categories and discard reasons are merged (the outcome rows stay a known, bounded set, and
 * Stats lists no text of the sender's); every other entry, like an unreadable report, is
 * counted `invalid` in category `internal` with why (decision 0039).
 */
export const clientReportsStage: Stage = {
  name: "client_reports",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw)) return outcome(c, "internal", "invalid", "invalid_client_report");
    const refused = new Map<string, number>();
    const refuse = (reason: string) => refused.set(reason, (refused.get(reason) ?? 0) + 1);
    for (const key of LISTS) {
      const list = raw[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        refuse("invalid_client_report_entry");
        continue;
      }
      for (const entry of list) {
        const read = readEntry(entry);
        if (typeof read === "string") refuse(read);
        else outcome(c, read.category, "client_discard", read.reason, read.quantity);
      }
    }
    for (const [reason, quantity] of refused) outcome(c, "internal", "invalid", reason, quantity);
  },
};
