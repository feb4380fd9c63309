import type { FirstSeen } from "../../src/core/issues/releases";
import { releaseKey, type ReleaseOrder, type ReleaseRef } from "../../src/core/ports/release-order";

/** A ReleaseOrder in memory, for core's own tests: releases are first seen in the order they are added. */
export class MemoryReleaseOrder implements ReleaseOrder {
  private readonly known = new Map<string, FirstSeen>();
  private readonly byProject = new Map<number, string[]>();
  /** How many times `firstSeen` was asked, and for how many releases in all. */
  readonly asked: number[] = [];

  add(projectId: number, version: string, at: number): void {
    this.known.set(releaseKey(projectId, version), { at, id: this.known.size + 1 });
    this.byProject.set(projectId, [version, ...(this.byProject.get(projectId) ?? [])]);
  }

  async firstSeen(refs: readonly ReleaseRef[]): Promise<Map<string, FirstSeen>> {
    this.asked.push(refs.length);
    const out = new Map<string, FirstSeen>();
    for (const r of refs) {
      const t = this.known.get(releaseKey(r.projectId, r.version));
      if (t) out.set(releaseKey(r.projectId, r.version), t);
    }
    return out;
  }

  async versions(projectId: number, limit: number): Promise<string[]> {
    return (this.byProject.get(projectId) ?? []).slice(0, limit);
  }
}
