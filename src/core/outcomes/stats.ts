import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { ProjectOutcomeRow } from "../ports/outcomes";

/**
 * Outcome counts as series over time, the numbers of the Stats page summed the way Sentry's
 * `stats_v2` answers them: per group of the chosen keys, a total and one value per interval.
 */

export const STATS_FIELDS = ["sum(quantity)", "sum(times_seen)"] as const;
export type StatsField = (typeof STATS_FIELDS)[number];
export const STATS_GROUP_KEYS = ["category", "outcome", "reason", "project"] as const;
export type StatsGroupKey = (typeof STATS_GROUP_KEYS)[number];

const HOUR = 3_600_000;
/** Enough for a year of hours; more would be an answer nobody draws. */
const MAX_INTERVALS = 10_000;

export interface StatsQuery {
  projectIds: readonly number[];
  /** The range (ms); widened to whole intervals. */
  start: number;
  end: number;
  /** Bucket width (ms), whole hours: outcomes are stored by hour. */
  interval: number;
  fields: readonly StatsField[];
  groupBy: readonly StatsGroupKey[];
  /** Keep only rows with one of these values (empty: all). */
  category?: readonly string[];
  outcome?: readonly string[];
  reason?: readonly string[];
}

export interface StatsGroup {
  by: Partial<Record<StatsGroupKey, string | number>>;
  totals: Partial<Record<StatsField, number>>;
  series: Partial<Record<StatsField, number[]>>;
}

export interface OutcomeStats {
  start: number;
  end: number;
  /** Each interval's start (ms). */
  intervals: number[];
  groups: StatsGroup[];
}

const keep = (wanted: readonly string[] | undefined, value: string) => !wanted || wanted.length === 0 || wanted.includes(value);

/**
 * The groups' series; `sum(times_seen)` counts stored hourly rows, the nearest thing to
 * Sentry's count of outcome records this store keeps.
 */
export async function outcomeStats(ctx: Pick<Ctx, "outcomes">, q: StatsQuery): Promise<OutcomeStats> {
  if (q.interval < HOUR || q.interval % HOUR !== 0)
    throw invalidInput("interval must be whole hours (1h, 1d, 1w): outcomes are counted by hour");
  const start = Math.floor(q.start / q.interval) * q.interval;
  const end = Math.max(start + q.interval, Math.ceil(q.end / q.interval) * q.interval);
  const slots = (end - start) / q.interval;
  if (slots > MAX_INTERVALS)
    throw invalidInput(`the range holds ${slots} intervals; ask at most ${MAX_INTERVALS} (a wider interval or a shorter range)`);
  const intervals = Array.from({ length: slots }, (_, i) => start + i * q.interval);
  const rows = await ctx.outcomes.ofProjects(q.projectIds, start, end);
  const groups = new Map<string, StatsGroup>();
  for (const row of rows) {
    if (!keep(q.category, row.category) || !keep(q.outcome, row.outcome) || !keep(q.reason, row.reason)) continue;
    const by = groupOf(row, q.groupBy);
    const key = JSON.stringify(by);
    let group = groups.get(key);
    if (!group) {
      group = { by, totals: {}, series: {} };
      for (const f of q.fields) {
        group.totals[f] = 0;
        group.series[f] = intervals.map(() => 0);
      }
      groups.set(key, group);
    }
    const slot = Math.floor((row.hour - start) / q.interval);
    for (const f of q.fields) {
      const value = f === "sum(quantity)" ? row.quantity : 1;
      group.totals[f] = (group.totals[f] ?? 0) + value;
      const series = group.series[f];
      if (series) series[slot] = (series[slot] ?? 0) + value;
    }
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, g]) => g);
  return { start, end, intervals, groups: ordered };
}

function groupOf(row: ProjectOutcomeRow, keys: readonly StatsGroupKey[]): StatsGroup["by"] {
  const by: StatsGroup["by"] = {};
  for (const k of keys) by[k] = k === "project" ? row.projectId : row[k];
  return by;
}

/** Sentry's legacy project `stats/` counters, over error events: which outcomes each one sums. */
const LEGACY_STATS: Record<string, readonly string[]> = {
  received: ["accepted", "filtered", "rate_limited", "invalid", "too_large"],
  rejected: ["rate_limited"],
  blacklisted: ["filtered"],
  generated: ["accepted"],
};
export const LEGACY_STAT_NAMES = Object.keys(LEGACY_STATS);

/** One project's error events as `[[seconds, count], …]`, one pair per interval, as Sentry's legacy `stats/` answers. */
export async function legacyProjectStats(
  ctx: Pick<Ctx, "outcomes">,
  q: { projectId: number; stat: string; start: number; end: number; interval: number },
): Promise<[number, number][]> {
  const outcome = LEGACY_STATS[q.stat];
  if (!outcome) throw invalidInput(`stat must be one of ${LEGACY_STAT_NAMES.join(", ")}, not "${q.stat}"`);
  const field = "sum(quantity)";
  const stats = await outcomeStats(ctx, { ...q, projectIds: [q.projectId], fields: [field], groupBy: [], category: ["error"], outcome });
  const series = stats.groups[0]?.series[field];
  return stats.intervals.map((t, i) => [t / 1000, series?.[i] ?? 0]);
}
