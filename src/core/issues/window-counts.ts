/**
 * Events and distinct users per issue over a recent window, without scanning events: what
 * frequency conditions ("more than N events / N users in 5 minutes") evaluate. The digest adds
 * each batch's events to minute buckets (kept a day) and users to minute and hour buckets;
 * windows up to a day read the minute buckets, longer ones the hourly ones (`issue_hourly`).
 */
import { sql, type Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Ctx } from "../context";

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Windows up to this many minutes are counted from minute buckets; minute buckets live this long. */
export const MINUTE_WINDOW_LIMIT = 24 * 60;
/** Minute buckets are kept a little longer than the longest minute window. */
const MINUTE_KEEP_MS = (MINUTE_WINDOW_LIMIT + 60) * MINUTE;
const CHUNK = 500;

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

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds a batch's events to the buckets, one statement per table (chunked), rows in key order. */
export async function addWindowCounts(trx: Kysely<DB>, samples: readonly WindowSample[]): Promise<void> {
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
  const m = [...minutes.values()].sort((a, b) => a.issue_id - b.issue_id || a.minute - b.minute);
  for (let i = 0; i < m.length; i += CHUNK) {
    await trx
      .insertInto("issue_minutes")
      .values(m.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "minute"]).doUpdateSet({ count: sql`issue_minutes.count + excluded.count` }))
      .execute();
  }
  const mu = [...minuteUsers.values()].sort((a, b) => a.issue_id - b.issue_id || a.minute - b.minute || cmp(a.user_key, b.user_key));
  for (let i = 0; i < mu.length; i += CHUNK) {
    await trx
      .insertInto("issue_minute_users")
      .values(mu.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "minute", "user_key"]).doNothing())
      .execute();
  }
  const hu = [...hourUsers.values()].sort((a, b) => a.issue_id - b.issue_id || a.hour - b.hour || cmp(a.user_key, b.user_key));
  for (let i = 0; i < hu.length; i += CHUNK) {
    await trx
      .insertInto("issue_hour_users")
      .values(hu.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["issue_id", "hour", "user_key"]).doNothing())
      .execute();
  }
}

export interface WindowCounts {
  events: number;
  users: number;
}

/**
 * Events and distinct users of an issue in the `windowMinutes` before `now` (ms). Up to a day
 * the window is exact to the minute (the minute `now` falls in counts whole); longer windows
 * are counted in whole hours.
 */
export function countsInWindow(ctx: Ctx, issueId: number, windowMinutes: number, now: number): Promise<WindowCounts> {
  return countsInWindowOn(ctx.db, issueId, windowMinutes, now);
}

/** `countsInWindow` through `db`, which may be a transaction the caller holds (the alerts consumer's). */
export async function countsInWindowOn(db: Kysely<DB>, issueId: number, windowMinutes: number, now: number): Promise<WindowCounts> {
  if (!Number.isInteger(windowMinutes) || windowMinutes < 1) throw new Error(`a window is a whole number of minutes, not ${windowMinutes}`);
  if (windowMinutes <= MINUTE_WINDOW_LIMIT) {
    const from = Math.floor(now / MINUTE) * MINUTE - (windowMinutes - 1) * MINUTE;
    const events = await db
      .selectFrom("issue_minutes")
      .select((eb) => eb.fn.sum<number | string | null>("count").as("n"))
      .where("issue_id", "=", issueId)
      .where("minute", ">=", from)
      .where("minute", "<=", now)
      .executeTakeFirst();
    const users = await db
      .selectFrom("issue_minute_users")
      .select((eb) => eb.fn.count<number | string>("user_key").distinct().as("n"))
      .where("issue_id", "=", issueId)
      .where("minute", ">=", from)
      .where("minute", "<=", now)
      .executeTakeFirst();
    return { events: Number(events?.n ?? 0), users: Number(users?.n ?? 0) };
  }
  const from = Math.floor(now / HOUR) * HOUR - (Math.ceil(windowMinutes / 60) - 1) * HOUR;
  const events = await db
    .selectFrom("issue_hourly")
    .select((eb) => eb.fn.sum<number | string | null>("count").as("n"))
    .where("issue_id", "=", issueId)
    .where("hour", ">=", from)
    .where("hour", "<=", now)
    .executeTakeFirst();
  const users = await db
    .selectFrom("issue_hour_users")
    .select((eb) => eb.fn.count<number | string>("user_key").distinct().as("n"))
    .where("issue_id", "=", issueId)
    .where("hour", ">=", from)
    .where("hour", "<=", now)
    .executeTakeFirst();
  return { events: Number(events?.n ?? 0), users: Number(users?.n ?? 0) };
}

/** Moves a merged issue's buckets to the issue it was merged into. */
export async function mergeWindowCounts(trx: Kysely<DB>, fromIssue: number, intoIssue: number): Promise<void> {
  const minutes = await trx.selectFrom("issue_minutes").selectAll().where("issue_id", "=", fromIssue).execute();
  for (let i = 0; i < minutes.length; i += CHUNK) {
    await trx
      .insertInto("issue_minutes")
      .values(minutes.slice(i, i + CHUNK).map((m) => ({ ...m, issue_id: intoIssue })))
      .onConflict((oc) => oc.columns(["issue_id", "minute"]).doUpdateSet({ count: sql`issue_minutes.count + excluded.count` }))
      .execute();
  }
  for (const table of ["issue_minute_users", "issue_hour_users"] as const) {
    const rows = await trx.selectFrom(table).selectAll().where("issue_id", "=", fromIssue).execute();
    for (let i = 0; i < rows.length; i += CHUNK) {
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + CHUNK).map((r) => ({ ...r, issue_id: intoIssue })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

/** Drops minute buckets older than a day (hour buckets go with the retention, src/core/retention/run.ts). */
export async function pruneMinuteCounts(ctx: Ctx, now: number): Promise<void> {
  await ctx.db
    .deleteFrom("issue_minutes")
    .where("minute", "<", now - MINUTE_KEEP_MS)
    .execute();
  await ctx.db
    .deleteFrom("issue_minute_users")
    .where("minute", "<", now - MINUTE_KEEP_MS)
    .execute();
}
