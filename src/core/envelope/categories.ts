import { type ItemHeader } from "./headers";
import { type ItemType } from "./item-types";

/**
 * Data categories used for rate limits and outcomes (client reports), named as Relay names
 * them (docs/protocol.md#data-categories). Only the ones an envelope item can count towards are listed.
 */
export type DataCategory =
  | "error"
  | "transaction"
  | "security"
  | "attachment"
  | "attachment_item"
  | "session"
  | "feedback"
  | "profile"
  | "profile_chunk"
  | "profile_chunk_ui"
  | "replay"
  | "monitor"
  | "span"
  | "log_item"
  | "log_byte"
  | "trace_metric";

export interface Quantity {
  readonly category: DataCategory;
  readonly quantity: number;
}

/**
 * The main category of each item type, or null for items that are not counted (client
 * reports, statsd, form data: Relay's `quantities` gives them none). Follows docs/protocol.md#data-categories;
 * entries marked "assumed" are not stated there.
 */
export const ITEM_CATEGORIES: Readonly<Record<ItemType, DataCategory | null>> = Object.freeze({
  event: "error",
  transaction: "transaction",
  security: "security",
  raw_security: "security",
  attachment: "attachment",
  session: "session",
  sessions: "session",
  log: "log_item",
  otel_log: "log_item", // assumed: one log per item
  user_report: "feedback",
  feedback: "feedback",
  profile: "profile",
  profile_chunk: "profile_chunk",
  replay_event: "replay",
  replay_recording: "replay",
  replay_video: "replay",
  check_in: "monitor",
  span: "span",
  otel_span: "span", // assumed: one span per item
  trace_metric: "trace_metric",
  unreal_report: "error", // assumed: an Unreal crash report becomes one error event
  nel: null, // assumed: not listed in docs/protocol.md#data-categories
  client_report: null,
  statsd: null,
  metric_buckets: null,
  form_data: null,
});

/** Platforms whose profile chunks count as UI profiling (assumed from Relay's `profile_chunk_ui` split). */
const UI_PROFILE_PLATFORMS: ReadonlySet<string> = new Set(["cocoa", "android", "javascript"]);

/** Item types whose payload is `{"items": [...]}` and whose header's `item_count` says how many (docs/protocol.md#item-types). */
const CONTAINERS: ReadonlySet<ItemType> = new Set<ItemType>(["span", "log", "trace_metric"]);

/** The most items one container is counted for, whatever its header claims. */
export const MAX_CONTAINER_ITEMS = 10_000;

/**
 * How many items one item is counted for. `item_count` is the client's word: a container is
 * counted for at most what its bytes can hold (each entry is an object of at least `{}` and a
 * comma) and MAX_CONTAINER_ITEMS; any other item is one, whatever its header says.
 */
export function containedItems(header: ItemHeader, payloadBytes: number): number {
  if (header.knownType === null || !CONTAINERS.has(header.knownType)) return 1;
  return Math.min(header.itemCount ?? 1, Math.floor((payloadBytes + 1) / 3), MAX_CONTAINER_ITEMS);
}

/**
 * What one item counts for. Attachments count their bytes (at least 1) plus one
 * attachment_item; containers (span v2, log, trace_metric) count `item_count`, bounded (containedItems); logs also
 * count their bytes as log_byte. Unknown types count for nothing.
 */
export function itemQuantities(header: ItemHeader, payloadBytes: number): Quantity[] {
  const type = header.knownType;
  if (type === null) return [];
  const contained = containedItems(header, payloadBytes);
  switch (type) {
    case "attachment":
      return [
        { category: "attachment", quantity: Math.max(1, payloadBytes) },
        { category: "attachment_item", quantity: 1 },
      ];
    case "log":
    case "otel_log":
      return [
        { category: "log_item", quantity: contained },
        { category: "log_byte", quantity: payloadBytes },
      ];
    case "span":
      return [{ category: "span", quantity: contained }];
    case "trace_metric":
      return [{ category: "trace_metric", quantity: contained }];
    case "profile_chunk": {
      const platform = header.raw.platform;
      const ui = typeof platform === "string" && UI_PROFILE_PLATFORMS.has(platform);
      return [{ category: ui ? "profile_chunk_ui" : "profile_chunk", quantity: 1 }];
    }
    default: {
      const category = ITEM_CATEGORIES[type];
      return category === null ? [] : [{ category, quantity: 1 }];
    }
  }
}
