import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { inboundFilterConfig } from "../../src/core/filter/index";
import { RECEIVED_AT } from "./sdk-events";
import { MemoryTelemetryStore } from "./memory-telemetry";
import { Scrubbing, type ProjectOptions } from "../../src/core/projects/options";
import { BoundedCache } from "../../src/core/digest/enrich/cache";
import { DEFAULT_ENRICHMENT_BUDGET } from "../../src/core/digest/enrich/run";
import { mergeRecords, type EventRecord, type OutcomeRecord } from "../../src/core/digest/records";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { decodePayload } from "../../src/core/storage/payload";
import { runStages, type StageRun } from "../../src/core/digest/run";
import type { Settled } from "../../src/core/digest/settled";
import { GROUPING_CONFIG } from "../../src/core/grouping/index";

/** Test helpers for the stages: envelopes built as SDKs write them, digested into a MemoryTelemetryStore. */

export const RECEIVED_MS = RECEIVED_AT.getTime();

export const defaultProjectOptions = (): ProjectOptions => ({
  filters: inboundFilterConfig(),
  storedFilters: {},
  scrubbing: Scrubbing.parse({}),
  grouping: { config: GROUPING_CONFIG, previous: null, transitionUntil: null },
});

export interface TestItem {
  type: string;
  payload: unknown;
  headers?: Record<string, unknown>;
}

export function envelope(items: readonly TestItem[], header: Record<string, unknown> = {}): Buffer {
  const parts = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    const payload = Buffer.from(typeof item.payload === "string" ? item.payload : JSON.stringify(item.payload));
    parts.push(Buffer.from(`\n${JSON.stringify({ type: item.type, ...item.headers, length: payload.length })}\n`), payload);
  }
  parts.push(Buffer.from("\n"));
  return Buffer.concat(parts);
}

export interface Digested {
  settled: Settled[];
  store: MemoryTelemetryStore;
  outcomes: OutcomeRecord[];
}

/** Digests envelopes (project 1 unless told) and stores what the stages produced, as the batch would. */
export async function digest(
  bodies: readonly Buffer[],
  run: Partial<StageRun> = {},
  projectIds: readonly number[] = [],
  receivedAt = RECEIVED_MS,
): Promise<Digested> {
  const inputs = bodies.map((body, i) => ({
    projectId: projectIds[i] ?? 1,
    keyId: 1,
    receivedAt,
    body,
    options: defaultProjectOptions(),
    rules: [],
  }));
  const settled = await runStages(inputs, {
    limits: DEFAULT_ENVELOPE_LIMITS,
    enrichers: [],
    budget: DEFAULT_ENRICHMENT_BUDGET,
    cache: new BoundedCache(1000),
    ...run,
  });
  const records = mergeRecords(settled.filter((s) => s.failure === null && !s.deferred).map((s) => s.records));
  const store = new MemoryTelemetryStore();
  await store.write(records);
  return { settled, store, outcomes: records.outcomes };
}

/** Outcome quantities summed by `category/outcome/reason`. */
export function tally(outcomes: readonly OutcomeRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of outcomes) {
    const key = `${o.category}/${o.outcome}/${o.reason}`;
    out[key] = (out[key] ?? 0) + o.quantity;
  }
  return out;
}

/** The event a record stores (its payload), as the event page reads it back. */
export const storedEvent = (record: EventRecord): NormalizedEvent => JSON.parse(decodePayload(record.payload)) as NormalizedEvent;
