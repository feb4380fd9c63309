import { containedItems, type EnvelopeHeader, type EnvelopeItem } from "../envelope/index";
import type { FingerprintRule } from "../grouping/index";
import { normalizeEvent } from "../normalize/index";
import type { NormalizedEvent } from "../normalize/types";
import type { ProjectOptions } from "../projects/options";
import type { DigestRecords, OutcomeRecord } from "./records";

/** What a stage knows about the item it digests, and where its records go. */
export interface StageContext {
  projectId: number;
  receivedAt: number;
  header: EnvelopeHeader;
  options: ProjectOptions;
  /** The project's fingerprint rules, parsed once per batch. */
  rules: readonly FingerprintRule[];
  records: DigestRecords;
  /**
   * Hands a normalized error event to the enrichment step; `then` receives it enriched (or as
   * it was) and groups it. Runs `then` at once when no enricher is registered; otherwise after
   * the batch's events have been enriched together (batch.ts), so that one project's slow
   * lookups overlap the others' instead of queueing them.
   */
  enrich(event: NormalizedEvent, then: (event: NormalizedEvent) => void): void;
}

/**
 * One item type's processing: read → normalize → (errors) enrich → filter → group → records.
 * Every item ends as records or as an outcome with a reason; nothing is dropped silently.
 * A throw is a bug: the envelope becomes a dead letter and the batch goes on.
 */
export interface Stage {
  readonly name: string;
  run(c: StageContext, item: EnvelopeItem): void;
}

/** Counts what became of `quantity` items of `category`. */
export function outcome(c: StageContext, category: string, kind: OutcomeRecord["outcome"], reason: string, quantity = 1): void {
  if (quantity > 0) c.records.outcomes.push({ projectId: c.projectId, category, outcome: kind, reason, quantity, at: c.receivedAt });
}

/**
 * How many items a refused item is counted for: its bounded `item_count` (containedItems), and
 * at least one, since a container claiming `item_count: 0` is still an item that was refused.
 */
export const claimedItems = (item: EnvelopeItem): number => Math.max(1, containedItems(item.header, item.payload.length));

/** Data stored per log, span or raw-JSON record: bounded, attacker-controlled JSON. */
const MAX_DATA_CHARS = 64 * 1024;
export const capJson = (value: unknown): string => {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= MAX_DATA_CHARS ? text : JSON.stringify({ _truncated: true, _size: text.length });
};

/** Normalizes an event-shaped payload; an invalid one is counted, spans it drops too. */
export function normalizeItem(c: StageContext, raw: unknown, category: string): NormalizedEvent | null {
  const result = normalizeEvent(raw, {
    receivedAt: new Date(c.receivedAt),
    sentAt: c.header.sentAt ?? null,
    ...(c.header.eventId ? { eventId: c.header.eventId } : {}),
    scrub: c.options.scrubbing,
  });
  if (!result.ok) {
    outcome(c, category, "invalid", result.reason);
    return null;
  }
  outcome(c, "span", "invalid", "too_many_spans", result.dropped.spans);
  outcome(c, "span", "invalid", "invalid_span", result.dropped.invalidSpans);
  outcome(c, "span", "invalid", "invalid_timestamp", result.dropped.spanTimestamps);
  return result.event;
}
