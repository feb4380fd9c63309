import type { NormalizedEvent } from "../../normalize/types";

/** A cache an enricher may keep lookups in (source maps, debug files), scoped to it and to the project. */
export interface EnrichmentCache {
  get(key: string): unknown;
  /** `weight` counts against the cache's bound (e.g. bytes); 1 when not given. */
  set(key: string, value: unknown, weight?: number): void;
}

export interface EnrichContext {
  projectId: number;
  cache: EnrichmentCache;
  /** Aborted when the event's or the batch's time budget runs out: stop any I/O and return. */
  signal: AbortSignal;
}

/**
 * A step between normalization and grouping that may do I/O, such as symbolication (resolving
 * minified frames through source maps). It receives a copy of the event and returns the
 * enriched event, or null when it has nothing to add. When it runs past its budget or throws,
 * the event goes on as it was before it, with a processing error saying so; it is never lost.
 * Grouping sees the enriched event, so an enricher that rewrites frames changes the hash.
 */
export interface Enricher {
  /** Stable and short: it names the enricher in processing errors and scopes its cache. */
  readonly name: string;
  /**
   * A cheap test of whether the enricher has anything to do for an event (source maps: a
   * JavaScript frame with a line and column). Events no enricher wants skip enrichment, its
   * copy and its timers altogether. Absent: every event.
   */
  wants?(event: NormalizedEvent, projectId: number): boolean;
  /**
   * Called once per batch, before any of its events is enriched, with the projects of the events
   * it wants: answers those it has nothing to do for in this batch (source maps: projects without
   * bundles, read afresh each batch so that an upload counts at once, whatever process took it).
   * Their events skip it, its copy and its timers included. A throw skips nothing.
   */
  idleProjects?(projectIds: readonly number[]): Promise<ReadonlySet<number>>;
  enrich(event: NormalizedEvent, context: EnrichContext): Promise<NormalizedEvent | null>;
}
