import type { Ctx } from "../context";
import type { ReleaseRecord } from "../ports/releases";

/** What the API says of a release's events, over all its projects (Sentry's `newGroups`, `firstEvent`, `lastEvent`). */
export interface ReleaseCounts {
  /** Issues the release introduced. */
  newGroups: number;
  firstEvent: number | null;
  lastEvent: number | null;
  /** Issues it introduced per project id. */
  newGroupsByProject: Map<number, number>;
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const latest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * The counts of several releases by release id, from the same numbers the release pages show
 * (`releaseStats`): one read per project the releases touch, not one per release.
 */
export async function releaseCounts(
  ctx: Pick<Ctx, "releases">,
  releases: readonly ReleaseRecord[],
  /** The projects the reader sees (null: all); others' issues are not counted. */
  visible: ReadonlySet<number> | null,
): Promise<Map<number, ReleaseCounts>> {
  const out = new Map<number, ReleaseCounts>(
    releases.map((r) => [r.id, { newGroups: 0, firstEvent: null, lastEvent: null, newGroupsByProject: new Map() }]),
  );
  const byProject = new Map<number, ReleaseRecord[]>();
  for (const r of releases)
    for (const p of r.projects) if (visible === null || visible.has(p.id)) byProject.set(p.id, [...(byProject.get(p.id) ?? []), r]);
  for (const [projectId, rs] of byProject) {
    const stats = await ctx.releases.releaseStats(
      projectId,
      rs.map((r) => r.version),
    );
    for (const r of rs) {
      const s = stats.get(r.version);
      const c = out.get(r.id);
      if (!s || !c) continue;
      c.newGroups += s.newIssues;
      c.newGroupsByProject.set(projectId, s.newIssues);
      c.firstEvent = earliest(c.firstEvent, s.firstSeen);
      c.lastEvent = latest(c.lastEvent, s.lastSeen);
    }
  }
  return out;
}
