import type { Ctx } from "../context";
import type { Settled } from "../digest/settled";
import type { ReleaseStore } from "../ports/releases";
import { Version } from "./schemas";

/** Releases known to exist per store (so per database), remembered up to this many. */
const REMEMBERED = 10_000;
const known = new WeakMap<ReleaseStore, Set<string>>();

/** The (project, release) pairs a digested batch's events and sessions name. */
export function releasesIn(settled: readonly Settled[]): { projectId: number; version: string }[] {
  const pairs = new Map<string, { projectId: number; version: string }>();
  const add = (projectId: number, version: string | undefined) => {
    if (version) pairs.set(`${projectId}\u0000${version}`, { projectId, version });
  };
  for (const s of settled) {
    if (s.failure !== null) continue;
    for (const e of s.records.events) add(e.projectId, e.facts.release ?? undefined);
    for (const c of s.records.sessions) add(c.projectId, c.release);
  }
  return [...pairs.values()];
}

/**
 * Creates the releases events and sessions name, as Sentry does when they arrive: a release of
 * the project's organization with the project linked, unless it exists already. A version
 * Sentry would refuse (a slash, a line break, `latest`…) is left out. Runs after the batch is
 * committed; a failure (two processes creating the same release at once) is retried with the
 * next event that names it.
 */
export async function noteReleases(
  ctx: Pick<Ctx, "releases" | "now">,
  pairs: readonly { projectId: number; version: string }[],
): Promise<void> {
  let seen = known.get(ctx.releases);
  if (!seen) known.set(ctx.releases, (seen = new Set()));
  for (const { projectId, version } of pairs) {
    const key = `${projectId}\u0000${version}`;
    if (seen.has(key) || !Version.safeParse(version).success) continue;
    try {
      await ctx.releases.noteSeen(projectId, version, ctx.now());
    } catch {
      continue;
    }
    if (seen.size >= REMEMBERED) seen.clear();
    seen.add(key);
  }
}
