/**
 * Events and distinct users per issue over a recent window, without scanning events: what
 * frequency conditions ("more than N events / N users in 5 minutes") evaluate. The digest adds
 * each batch's events to minute buckets (kept a day) and users to minute and hour buckets;
 * windows up to a day read the minute buckets, longer ones the hourly ones (`issue_hourly`).
 * What goes in which bucket, and which buckets a window reads, is decided here; storage only
 * adds and sums them (src/db/window-counts.ts).
 */
import type { Ctx } from "../context";
import type { WindowCounts, WindowSpan } from "../ports/window-counts";

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Windows up to this many minutes are counted from minute buckets; minute buckets live this long. */
export const MINUTE_WINDOW_LIMIT = 24 * 60;
/** Minute buckets are kept a little longer than the longest minute window. */
const MINUTE_KEEP_MS = (MINUTE_WINDOW_LIMIT + 60) * MINUTE;

/** One event's contribution: its issue, when it happened (ms) and who it affected, if known. */
export interface WindowSample {
  issueId: number;
  at: number;
  user: string | null;
  /** What metric alerts count by (src/db/metric-counts.ts, decision 0020). */
  projectId: number;
  environment: string | null;
  level: string;
}

/** A batch's additions to the buckets (the bucket tables' column names), each list in key order. */
export interface WindowBuckets {
  minutes: { issue_id: number; minute: number; count: number }[];
  minuteUsers: { issue_id: number; minute: number; user_key: string }[];
  hourUsers: { issue_id: number; hour: number; user_key: string }[];
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The buckets a batch's events add to: events per minute, and each user once per minute and per hour. */
export function windowBuckets(samples: readonly WindowSample[]): WindowBuckets {
  const minutes = new Map<string, { issue_id: number; minute: number; count: number }>();
  const minuteUsers = new Map<string, { issue_id: number; minute: number; user_key: string }>();
  const hourUsers = new Map<string, { issue_id: number; hour: number; user_key: string }>();
  for (const s of samples) {
    const minute = Math.floor(s.at / MINUTE) * MINUTE;
    const m = minutes.get(`${s.issueId}:${minute}`);
    if (m) m.count++;
    else minutes.set(`${s.issueId}:${minute}`, { issue_id: s.issueId, minute, count: 1 });
    if (s.user === null) continue;
    const hour = Math.floor(s.at / HOUR) * HOUR;
    minuteUsers.set(`${s.issueId}:${minute}:${s.user}`, { issue_id: s.issueId, minute, user_key: s.user });
    hourUsers.set(`${s.issueId}:${hour}:${s.user}`, { issue_id: s.issueId, hour, user_key: s.user });
  }
  // Key order, so that two digesters on PostgreSQL lock the rows in the same order.
  return {
    minutes: [...minutes.values()].sort((a, b) => a.issue_id - b.issue_id || a.minute - b.minute),
    minuteUsers: [...minuteUsers.values()].sort((a, b) => a.issue_id - b.issue_id || a.minute - b.minute || cmp(a.user_key, b.user_key)),
    hourUsers: [...hourUsers.values()].sort((a, b) => a.issue_id - b.issue_id || a.hour - b.hour || cmp(a.user_key, b.user_key)),
  };
}

/**
 * The buckets of the `windowMinutes` before `now` (ms). Up to a day the window is exact to the
 * minute (the minute `now` falls in counts whole); longer windows are counted in whole hours.
 */
export function windowSpan(windowMinutes: number, now: number): WindowSpan {
  if (!Number.isInteger(windowMinutes) || windowMinutes < 1) throw new Error(`a window is a whole number of minutes, not ${windowMinutes}`);
  if (windowMinutes <= MINUTE_WINDOW_LIMIT)
    return { unit: "minute", from: Math.floor(now / MINUTE) * MINUTE - (windowMinutes - 1) * MINUTE, to: now };
  return { unit: "hour", from: Math.floor(now / HOUR) * HOUR - (Math.ceil(windowMinutes / 60) - 1) * HOUR, to: now };
}

/** Events and distinct users of an issue in the `windowMinutes` before `now` (ms), as `windowSpan` bounds them. */
export function countsInWindow(ctx: Ctx, issueId: number, windowMinutes: number, now: number): Promise<WindowCounts> {
  return ctx.windowCounts.counts(issueId, windowSpan(windowMinutes, now));
}

/** Drops minute buckets older than a day (hour buckets go with the retention, src/core/retention/run.ts). */
export async function pruneMinuteCounts(ctx: Ctx, now: number): Promise<void> {
  await ctx.windowCounts.pruneMinutes(now - MINUTE_KEEP_MS);
}
