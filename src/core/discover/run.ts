/**
 * Discover's two answers: a table page (`events/`) and time series (`events-stats/`) in the
 * three shapes Sentry gives — one `data` series; an object per `yAxis`; an object per top group.
 */
import type { Ctx } from "../context";
import type { DiscoverPlan, DiscoverRow, DiscoverValue } from "../ports/discover";
import { planOf, type DiscoverInput } from "./plan";

const iso = (seconds: DiscoverValue) => (typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : seconds);

/** Times come back as ISO strings, as Sentry's do. */
function present(plan: DiscoverPlan, row: DiscoverRow): DiscoverRow {
  for (const c of plan.columns) if (c.column === "timestamp") row[c.key] = iso(row[c.key] ?? null);
  for (const a of plan.aggregates) if (a.fn === "last_seen" || a.fn === "first_seen") row[a.key] = iso(row[a.key] ?? null);
  return row;
}

export async function discoverTable(ctx: Ctx, input: DiscoverInput): Promise<{ data: DiscoverRow[]; hasMore: boolean }> {
  const plan = planOf(input);
  const rows = await ctx.discover.table({ ...plan, limit: plan.limit + 1 });
  return { data: rows.slice(0, plan.limit).map((r) => present(plan, r)), hasMore: rows.length > plan.limit };
}

export interface StatsInput {
  yAxis: readonly string[];
  intervalSeconds: number;
  /** Keep the last bucket though it reaches past `end`. */
  partial: boolean;
  topEvents: number;
  excludeOther: boolean;
}

type Series = { data: [number, { count: number }[]][]; start: number; end: number; order?: number; isMetricsData: false };

export async function discoverStats(ctx: Ctx, input: DiscoverInput, stats: StatsInput): Promise<Record<string, unknown>> {
  const yAxis = stats.yAxis.length ? stats.yAxis : ["count()"];
  const interval = stats.intervalSeconds;
  const groupFields = stats.topEvents > 0 ? input.fields : [];
  const plan = planOf({ ...input, fields: [...groupFields, ...yAxis] });
  const first = Math.floor(plan.start / interval) * interval;
  const buckets: number[] = [];
  for (let t = first; t < plan.end; t += interval) if (stats.partial || t + interval <= plan.end) buckets.push(t);
  const seriesOf = (values: Map<number, DiscoverRow>, axis: string, order?: number): Series => ({
    data: buckets.map((t) => [t, [{ count: Number(values.get(t)?.[axis] ?? 0) }]]),
    start: first,
    end: plan.end,
    ...(order === undefined ? {} : { order }),
    isMetricsData: false,
  });
  const perAxis = (values: Map<number, DiscoverRow>, order?: number): Record<string, unknown> =>
    yAxis.length === 1
      ? seriesOf(values, yAxis[0] ?? "count()", order)
      : Object.fromEntries(yAxis.map((a) => [a, seriesOf(values, a, order)]));

  if (plan.columns.length === 0) {
    const rows = await ctx.discover.series({ ...plan, orderBy: [] }, interval);
    return perAxis(new Map(rows.map((r) => [r.bucket, r.row])));
  }
  // Top events: the groups with the most of the first yAxis over the whole range, then their series.
  const top = await ctx.discover.table({
    ...plan,
    orderBy: [{ key: yAxis[0] ?? "count()", descending: true }],
    limit: stats.topEvents,
    offset: 0,
  });
  const keyOf = (row: DiscoverRow) => plan.columns.map((c) => String(row[c.key] ?? "")).join(",");
  const rows = await ctx.discover.series({ ...plan, orderBy: [] }, interval);
  const groups = new Map(top.map((r) => [keyOf(r), new Map<number, DiscoverRow>()]));
  const other = new Map<number, DiscoverRow>();
  for (const { bucket, row } of rows) {
    const into = groups.get(keyOf(row));
    if (into) into.set(bucket, row);
    else if (!stats.excludeOther) {
      const sum: DiscoverRow = other.get(bucket) ?? {};
      for (const a of yAxis) sum[a] = Number(sum[a] ?? 0) + Number(row[a] ?? 0);
      other.set(bucket, sum);
    }
  }
  const answer: Record<string, unknown> = {};
  [...groups].forEach(([key, values], order) => (answer[key] = perAxis(values, order)));
  if (!stats.excludeOther && other.size > 0) answer["Other"] = perAxis(other, groups.size);
  return answer;
}
