import { BoundedCache } from "./cache";
import type { ArtifactStore } from "../../ports/artifacts";
import type { MapResolver } from "../../sourcemaps/resolver";
import { sourceMapEnricher } from "../../sourcemaps/symbolicate";
import type { Enricher } from "./enricher";

type Artifacts = Pick<ArtifactStore, "byDebugId" | "byUrl" | "content" | "bundleGenerations">;

/** Each store's enrichers, made once: they keep what they learn (decoded maps, projects without maps) between batches. */
const madeFor = new WeakMap<Artifacts, readonly Enricher[]>();

/**
 * The enrichers production runs, in order: symbolication of minified JavaScript through the
 * source maps uploaded for the project. Without a resolver, maps are decoded in the
 * calling thread and the enrichers are made once per store; the digest thread passes the
 * resolver of its source-map thread (src/server/sourcemap-thread.ts). Tests pass their own
 * enrichers through DigestOptions.
 */
export function productionEnrichers(artifacts: Artifacts, resolver?: MapResolver): readonly Enricher[] {
  if (resolver) return [sourceMapEnricher(artifacts, Date.now, resolver)];
  let made = madeFor.get(artifacts);
  if (!made) {
    made = [sourceMapEnricher(artifacts)];
    madeFor.set(artifacts, made);
  }
  return made;
}

/** Entries (or their weight, e.g. bytes) the shared enrichment cache keeps per digest thread. */
export const ENRICHMENT_CACHE_WEIGHT = 64 * 1024 * 1024;

/** One cache per digest thread, shared by all enrichers, each in a scope of its own. */
export const sharedEnrichmentCache = new BoundedCache(ENRICHMENT_CACHE_WEIGHT);
