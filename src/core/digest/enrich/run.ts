import type { NormalizedEvent, ProcessingError } from "../../normalize/types";
import type { BoundedCache } from "./cache";
import type { Enricher } from "./enricher";

/**
 * How long enrichment may take: per event (all its enrichers together) and per digest batch;
 * and how long a batch waits for an event that may be deferred (see `enrichAll`).
 */
export interface EnrichmentBudget {
  perEventMs: number;
  perBatchMs: number;
  /** Absent: never defer. */
  deferAfterMs?: number;
}

/**
 * Two seconds per event, ten per batch: an unreachable source-map host costs a batch at most
 * ten seconds, after which its remaining events are grouped as they came. An event still being
 * enriched after half a second is deferred while it may be (a large map decoding in its thread):
 * the batch — other projects' events — is stored without it.
 */
export const DEFAULT_ENRICHMENT_BUDGET: EnrichmentBudget = { perEventMs: 2_000, perBatchMs: 10_000, deferAfterMs: 500 };

/** An event whose enrichment was still running when its batch stopped waiting; its envelope is digested again later. */
export const DEFERRED = Symbol("deferred");

/** Events enriched at once: enough to overlap the I/O of many projects, few enough to bound memory. */
const CONCURRENCY = 16;
const MAX_DETAIL = 200;

export interface EnrichmentRun {
  enrichers: readonly Enricher[];
  budget: EnrichmentBudget;
  cache: BoundedCache;
  /** Milliseconds, monotonic. */
  clock?: () => number;
}

const TIMED_OUT = Symbol("timed out");

function withError(event: NormalizedEvent, error: ProcessingError): NormalizedEvent {
  return { ...event, errors: [...(event.errors ?? []), error] };
}

/** Resolves to TIMED_OUT after `ms`, or to the enricher's result; the timer never outlives it. */
async function raceBudget<T>(work: Promise<T>, ms: number, controller: AbortController): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(
      () => {
        controller.abort();
        resolve(TIMED_OUT);
      },
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function enrichOne(
  p: { projectId: number; event: NormalizedEvent; deferrable?: boolean },
  run: EnrichmentRun,
  batchDeadline: number,
  idle: ReadonlyMap<Enricher, ReadonlySet<number>>,
): Promise<NormalizedEvent | typeof DEFERRED> {
  const { projectId, event } = p;
  const clock = run.clock ?? performance.now.bind(performance);
  const started = clock();
  const deadline = Math.min(started + run.budget.perEventMs, batchDeadline);
  const deferAt = p.deferrable && run.budget.deferAfterMs !== undefined ? started + run.budget.deferAfterMs : Infinity;
  let current = event;
  for (const enricher of run.enrichers) {
    if (idle.get(enricher)?.has(projectId) || (enricher.wants && !enricher.wants(current, projectId))) continue;
    const left = deadline - clock();
    if (left <= 0) {
      current = withError(current, { type: "enrichment_skipped", name: enricher.name, value: "the time budget was spent" });
      continue;
    }
    const controller = new AbortController();
    const context = { projectId, cache: run.cache.scoped(enricher.name, projectId), signal: controller.signal };
    const patience = Math.min(left, deferAt - clock());
    try {
      // A copy: an enricher that times out and goes on changing its event changes nothing stored.
      const result = await raceBudget(enricher.enrich(structuredClone(current), context), patience, controller);
      // What it was doing (decoding a map, say) goes on and is cached: the event's next try finds it done.
      if (result === TIMED_OUT && patience < left) return DEFERRED;
      if (result === TIMED_OUT)
        current = withError(current, { type: "enrichment_timeout", name: enricher.name, value: `no answer within ${Math.round(left)} ms` });
      else if (result !== null && typeof result === "object") current = result;
    } catch (error) {
      const detail = (error instanceof Error ? error.message : String(error)).slice(0, MAX_DETAIL);
      current = withError(current, { type: "enrichment_failed", name: enricher.name, value: detail });
    }
  }
  return current;
}

/**
 * Enriches a batch's events, several at once, each within its budget and all within the
 * batch's. Never throws: an enricher that fails or runs late leaves its event as it came,
 * with a processing error. A `deferrable` event still being enriched after `deferAfterMs` is
 * returned as DEFERRED instead, so one project's slow work does not hold the batch. Returns the
 * events in the order given.
 */
export async function enrichAll(
  pending: readonly { projectId: number; event: NormalizedEvent; deferrable?: boolean }[],
  run: EnrichmentRun,
): Promise<(NormalizedEvent | typeof DEFERRED)[]> {
  const out: (NormalizedEvent | typeof DEFERRED)[] = pending.map((p) => p.event);
  if (run.enrichers.length === 0 || pending.length === 0) return out;
  const clock = run.clock ?? performance.now.bind(performance);
  const batchDeadline = clock() + run.budget.perBatchMs;
  const idle = new Map<Enricher, ReadonlySet<number>>();
  for (const enricher of run.enrichers) {
    if (!enricher.idleProjects) continue;
    const ids = [...new Set(pending.filter((p) => enricher.wants?.(p.event, p.projectId) ?? true).map((p) => p.projectId))];
    // A failed read leaves the enricher to find out for itself, event by event.
    if (ids.length > 0) idle.set(enricher, await enricher.idleProjects(ids).catch(() => new Set<number>()));
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < pending.length; i = next++) {
      const p = pending[i]!;
      out[i] = await enrichOne(p, run, batchDeadline, idle);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  return out;
}
