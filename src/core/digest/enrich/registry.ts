import { BoundedCache } from "./cache";
import type { Enricher } from "./enricher";

/**
 * The enrichers production runs, in order. None yet: symbolication through source maps
 * (a later issue) is the first. Tests pass their own through DigestOptions.
 */
export const ENRICHERS: readonly Enricher[] = [];

/** Entries (or their weight, e.g. bytes) the shared enrichment cache keeps per digest thread. */
export const ENRICHMENT_CACHE_WEIGHT = 64 * 1024 * 1024;

/** One cache per digest thread, shared by all enrichers, each in a scope of its own. */
export const sharedEnrichmentCache = new BoundedCache(ENRICHMENT_CACHE_WEIGHT);
