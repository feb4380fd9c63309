import type { Ctx } from "../context";

/** The two ranges the issue page offers; Sentry's issue page uses the same pair. */
export type FrequencyRange = "24h" | "30d";

export const FREQUENCY_RANGES: readonly FrequencyRange[] = ["24h", "30d"];

export interface FrequencyBucket {
  /** Start of the bucket, epoch milliseconds (UTC hour or UTC day). */
  start: number;
  count: number;
}

export interface Frequency {
  range: FrequencyRange;
  bucketMs: number;
  /** Oldest first; empty buckets are present with count 0. The last bucket holds `now`. */
  buckets: FrequencyBucket[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SHAPE: Record<FrequencyRange, { bucketMs: number; count: number }> = {
  "24h": { bucketMs: HOUR, count: 24 },
  "30d": { bucketMs: DAY, count: 30 },
};

export function parseFrequencyRange(value: unknown): FrequencyRange {
  return value === "30d" ? "30d" : "24h";
}

/**
 * Event counts of one issue per hour (24 h) or per UTC day (30 d). Only hourly rows are
 * stored (issue_hourly, written by digest), so days are sums of their 24 hours; the sum
 * happens here rather than in SQL so both dialects share one bucketing rule.
 */
export async function issueFrequency(ctx: Ctx, issueId: number, now: number, range: FrequencyRange): Promise<Frequency> {
  const { bucketMs, count } = SHAPE[range];
  const last = Math.floor(now / bucketMs) * bucketMs;
  const start = last - (count - 1) * bucketMs;
  const buckets = Array.from({ length: count }, (_, i) => ({ start: start + i * bucketMs, count: 0 }));
  for (const r of await ctx.issueReader.hourly([issueId], start, last + bucketMs)) {
    const bucket = buckets[Math.floor((r.hour - start) / bucketMs)];
    if (bucket) bucket.count += r.count;
  }
  return { range, bucketMs, buckets };
}
