import { isEnvelopeError, parseEnvelope, type EnvelopeLimits } from "../envelope/index";
import type { FingerprintRule } from "../grouping/index";
import type { NormalizedEvent } from "../normalize/types";
import type { ProjectOptions } from "../projects/options";
import type { BoundedCache } from "./enrich/cache";
import type { Enricher } from "./enrich/enricher";
import { DEFERRED, enrichAll, type EnrichmentBudget } from "./enrich/run";
import { emptyRecords } from "./records";
import type { Settled } from "./settled";
import type { StageContext } from "./stage";
import { digestItem } from "./stages/index";

/** One queued envelope with what its project's stages need. */
export interface EnvelopeInput {
  projectId: number;
  keyId: number;
  receivedAt: number;
  body: Uint8Array;
  options: ProjectOptions;
  rules: readonly FingerprintRule[];
  /** How many times the envelope was deferred already (0 when it comes from the queue). */
  deferrals?: number;
}

/**
 * How many times an envelope may wait for its enrichment (a source map decoding in its thread)
 * and be digested again later, a second or more apart; after that it is enriched with the
 * usual time budget, which it may run out of. The digest never waits on one envelope forever.
 */
export const MAX_DEFERRALS = 20;

export interface StageRun {
  limits: EnvelopeLimits;
  enrichers: readonly Enricher[];
  budget: EnrichmentBudget;
  cache: BoundedCache;
}

/** An error event waiting for enrichment, with the envelope it belongs to and what groups it. */
interface Pending {
  index: number;
  projectId: number;
  event: NormalizedEvent;
  deferrable: boolean;
  then: (event: NormalizedEvent) => void;
}

/** The body as a Buffer without copying it (the driver's blobs already are Buffers). */
const asBuffer = (body: Uint8Array): Buffer => (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength));

const failureOf = (error: unknown) => `digest_failed: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Runs each envelope's items through their stages (stages/index.ts) into records: CPU work,
 * no storage. Error events are enriched together once every envelope has been read, so one
 * project's slow lookups overlap the others' instead of queueing them; then they are grouped.
 * Each envelope is digested on its own, so one whose processing throws is set aside (a dead
 * letter) and the rest go on; a throw here is a bug, never a reason to stall.
 */
export async function runStages(inputs: readonly EnvelopeInput[], run: StageRun): Promise<Settled[]> {
  const settled: Settled[] = [];
  const pending: Pending[] = [];
  for (const input of inputs) {
    const itemTypes: string[] = [];
    const letter = {
      projectId: input.projectId,
      keyId: input.keyId,
      receivedAt: input.receivedAt,
      body: input.body,
      itemTypes,
      scrubbing: input.options.scrubbing,
    };
    const records = emptyRecords();
    const index = settled.length;
    const deferrals = input.deferrals ?? 0;
    const deferrable = deferrals < MAX_DEFERRALS;
    const enrich: StageContext["enrich"] = (event, then) =>
      run.enrichers.some((e) => e.wants?.(event, input.projectId) ?? true)
        ? void pending.push({ index, projectId: input.projectId, event, deferrable, then })
        : then(event);
    try {
      const envelope = parseEnvelope(asBuffer(input.body), run.limits);
      itemTypes.push(...envelope.items.map((item) => item.header.type));
      const c: StageContext = {
        projectId: input.projectId,
        receivedAt: input.receivedAt,
        header: envelope.header,
        options: input.options,
        rules: input.rules,
        records,
        enrich,
      };
      for (const item of envelope.items) digestItem(c, item);
      settled.push({ records, failure: null, letter, deferrals });
    } catch (error) {
      // An envelope that failed has no events waiting: they would group into records no one writes.
      while (pending.length > 0 && pending[pending.length - 1]!.index === index) pending.pop();
      if (isEnvelopeError(error)) {
        // Stored envelopes were written by accept and parse; one that does not is counted, not retried forever.
        const invalid = emptyRecords();
        invalid.outcomes.push({
          projectId: input.projectId,
          category: "default",
          outcome: "invalid",
          reason: error.reason,
          quantity: 1,
          at: input.receivedAt,
        });
        settled.push({ records: invalid, failure: null, letter, deferrals });
      } else {
        settled.push({ records, failure: failureOf(error), letter, deferrals });
      }
    }
  }
  if (pending.length === 0) return settled;
  const enriched = await enrichAll(pending, run);
  // An envelope with an event still waiting is digested again as a whole later: none of its records are kept now.
  for (const [i, p] of pending.entries()) if (enriched[i] === DEFERRED) settled[p.index]!.deferred = true;
  for (const [i, p] of pending.entries()) {
    const s = settled[p.index]!;
    const event = enriched[i]!;
    if (s.failure !== null || s.deferred || event === DEFERRED) continue;
    try {
      p.then(event);
    } catch (error) {
      s.failure = failureOf(error);
    }
  }
  return settled;
}
