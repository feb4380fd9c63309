import type { EnrichmentCache } from "./enricher";

/**
 * A least-recently-used map bounded by total weight (entries weigh 1 unless told otherwise,
 * e.g. their size in bytes), shared by the enrichers of one digest thread. A Map keeps
 * insertion order, so the first key is the least recently used one.
 */
export class BoundedCache {
  private readonly entries = new Map<string, { value: unknown; weight: number }>();
  private total = 0;

  constructor(readonly maxWeight: number) {}

  get(key: string): unknown {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: unknown, weight = 1): void {
    const w = Math.max(0, weight);
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.weight;
      this.entries.delete(key);
    }
    // An entry heavier than the whole cache is not kept: it would evict everything else.
    if (w > this.maxWeight) return;
    this.entries.set(key, { value, weight: w });
    this.total += w;
    for (const [k, entry] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(k);
      this.total -= entry.weight;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.total;
  }

  /** A view whose keys cannot collide with another enricher's or another project's. */
  scoped(enricher: string, projectId: number): EnrichmentCache {
    const prefix = `${enricher}\u0000${projectId}\u0000`;
    return { get: (key) => this.get(prefix + key), set: (key, value, weight) => this.set(prefix + key, value, weight) };
  }
}
