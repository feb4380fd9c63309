import { sql, type Kysely } from "kysely";
import type { WindowSample } from "../core/issues/window-counts";
import type { DB } from "./schema";

const MINUTE = 60_000;
const CHUNK = 500;
/** Bounds on what an event names, so that a bucket's key stays small (an environment is at most 64 characters in Sentry). */
const MAX_ENVIRONMENT = 64;
const MAX_USER_KEY = 200;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds a digest batch's error events to the metric alerts' buckets (decision 0020): events and
 * distinct users per project, minute, environment and level. Runs in the digest's transaction
 * beside the per-issue counts, one statement per table (chunked), rows in key order so that two
 * digesters on PostgreSQL lock them in the same order.
 */
export async function addMetricCounts(trx: Kysely<DB>, samples: readonly WindowSample[]): Promise<void> {
  const counts = new Map<string, { project_id: number; minute: number; environment: string; level: string; count: number }>();
  const users = new Map<string, { project_id: number; minute: number; environment: string; level: string; user_key: string }>();
  for (const s of samples) {
    const minute = Math.floor(s.at / MINUTE) * MINUTE;
    const environment = (s.environment ?? "").slice(0, MAX_ENVIRONMENT);
    const key = `${s.projectId}\u0000${minute}\u0000${environment}\u0000${s.level}`;
    const c = counts.get(key);
    if (c) c.count++;
    else counts.set(key, { project_id: s.projectId, minute, environment, level: s.level, count: 1 });
    if (s.user === null) continue;
    const user_key = s.user.slice(0, MAX_USER_KEY);
    users.set(`${key}\u0000${user_key}`, { project_id: s.projectId, minute, environment, level: s.level, user_key });
  }
  const byKey = <T extends { project_id: number; minute: number; environment: string; level: string }>(a: T, b: T) =>
    a.project_id - b.project_id || a.minute - b.minute || cmp(a.environment, b.environment) || cmp(a.level, b.level);
  const c = [...counts.values()].sort(byKey);
  for (let i = 0; i < c.length; i += CHUNK)
    await trx
      .insertInto("metric_minutes")
      .values(c.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(["project_id", "minute", "environment", "level"]).doUpdateSet({ count: sql`metric_minutes.count + excluded.count` }),
      )
      .execute();
  const u = [...users.values()].sort((a, b) => byKey(a, b) || cmp(a.user_key, b.user_key));
  for (let i = 0; i < u.length; i += CHUNK)
    await trx
      .insertInto("metric_minute_users")
      .values(u.slice(i, i + CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute();
}
