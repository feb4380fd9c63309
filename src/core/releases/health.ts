import type { Ctx } from "../context";
import { computeHealth, type ReleaseHealth } from "./health-math";

const DAY = 86_400_000;

/** The windows the release pages offer: the last 24 hours (per hour) or 14 days (per day). */
export const HEALTH_PERIODS = { "24h": DAY, "14d": 14 * DAY } as const;
export type HealthPeriod = keyof typeof HEALTH_PERIODS;
export const healthPeriod = (value: string | undefined): HealthPeriod => (value === "24h" ? "24h" : "14d");

/**
 * The health of a project's releases since `since`, in one environment or all: crash-free
 * sessions and users, errored sessions, adoption over the last 24 hours, and a chart series.
 * Releases without sessions are in the map with zero sessions and null rates.
 */
export async function releaseHealth(
  ctx: Pick<Ctx, "releaseHealth" | "now">,
  projectId: number,
  versions: readonly string[],
  /** `environment`: one environment; null, undefined or "" for all of them. */
  options: { environment?: string | null; since: number },
): Promise<Map<string, ReleaseHealth>> {
  const now = ctx.now();
  const window = { environment: options.environment || null, since: options.since };
  const lastDay = { environment: window.environment, since: now - DAY };
  const [counts, errored, users, started] = await Promise.all([
    ctx.releaseHealth.sessionCounts(projectId, versions, window),
    ctx.releaseHealth.erroredSessions(projectId, versions, window),
    ctx.releaseHealth.usersByWorst(projectId, versions, window),
    ctx.releaseHealth.startedByRelease(projectId, lastDay),
  ]);
  const projectStartedLastDay = [...started.values()].reduce((s, n) => s + n, 0);
  const out = new Map<string, ReleaseHealth>();
  for (const version of versions) {
    out.set(
      version,
      computeHealth({
        counts: counts.filter((c) => c.release === version),
        erroredSessions: errored.filter((e) => e.release === version),
        users: users.filter((u) => u.release === version),
        startedLastDay: started.get(version) ?? 0,
        projectStartedLastDay,
        since: options.since,
        now,
      }),
    );
  }
  return out;
}
