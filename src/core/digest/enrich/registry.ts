import { BoundedCache } from "./cache";
import type { ArtifactStore } from "../../ports/artifacts";
import { sourceMapEnricher } from "../../sourcemaps/symbolicate";
import type { Enricher } from "./enricher";

/**
 * The enrichers production runs, in order: symbolication of minified JavaScript through the
 * source maps uploaded for the project (issue 13). Tests pass their own through DigestOptions.
 */
export function productionEnrichers(
  artifacts: Pick<ArtifactStore, "byDebugId" | "byUrl" | "content" | "projectHasBundles">,
): readonly Enricher[] {
  return [sourceMapEnricher(artifacts)];
}

/** Entries (or their weight, e.g. bytes) the shared enrichment cache keeps per digest thread. */
export const ENRICHMENT_CACHE_WEIGHT = 64 * 1024 * 1024;

/** One cache per digest thread, shared by all enrichers, each in a scope of its own. */
export const sharedEnrichmentCache = new BoundedCache(ENRICHMENT_CACHE_WEIGHT);
