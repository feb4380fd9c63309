import type { FirstSeen } from "../issues/releases";

/** A release as a project's events name it (releases belong to the project's organization). */
export interface ReleaseRef {
  projectId: number;
  version: string;
}

export const releaseKey = (projectId: number, version: string): string => `${projectId}\u0000${version}`;

/**
 * What release order needs from storage (src/core/issues/releases.ts): when each release was
 * first seen in its organization — created by the first event or session naming it
 * (src/core/releases/seen.ts) or by the API. Implemented over the main database by
 * src/db/release-order.ts; the digest asks once per batch, for every release its resolved
 * issues compare.
 */
export interface ReleaseOrder {
  /** The first-seen time of each release the store knows, by `releaseKey`; one it does not know is left out. */
  firstSeen(refs: readonly ReleaseRef[]): Promise<Map<string, FirstSeen>>;
  /** The versions of the releases linked to a project, at most `limit`, newest first. */
  versions(projectId: number, limit: number): Promise<string[]>;
}

/**
 * First-seen times already read, up to `limit` of them (least recently used go first). A
 * release's time does not change once it exists, so only found ones are kept: one not known
 * yet is asked for again, since it is created after the batch that first names it commits.
 */
export class FirstSeenCache {
  private readonly times = new Map<string, FirstSeen>();
  constructor(private readonly limit = 10_000) {}

  get(key: string): FirstSeen | undefined {
    const t = this.times.get(key);
    if (t) {
      this.times.delete(key);
      this.times.set(key, t);
    }
    return t;
  }

  set(key: string, t: FirstSeen): void {
    this.times.delete(key);
    this.times.set(key, t);
    while (this.times.size > this.limit) this.times.delete(this.times.keys().next().value!);
  }

  get size(): number {
    return this.times.size;
  }
}
