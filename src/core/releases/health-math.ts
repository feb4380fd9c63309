import { HEALTH_RANK } from "../digest/records";
import type { SessionCountRow, WorstCountRow } from "../ports/release-health";

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** One bucket of the health chart: sessions by how they ended, and the crash-free rate. */
export interface HealthPoint {
  start: number;
  sessions: number;
  healthy: number;
  errored: number;
  unhandled: number;
  abnormal: number;
  crashed: number;
  /** 0..1; null when no session started in the bucket. */
  crashFree: number | null;
}

/** A release's health in a window, as Sentry's release health shows it. */
export interface ReleaseHealth {
  /** Sessions started (each counted once, by its first update or its aggregate bucket). */
  sessions: number;
  /** Sessions that reported errors but did not end unhandled, abnormally or crashed. */
  errored: number;
  /** Sessions ended by an error that reached the global handler (browser SDKs): not crashes. */
  unhandled: number;
  abnormal: number;
  crashed: number;
  /** 0..1 (1 − crashed / sessions); null without sessions. */
  crashFreeSessions: number | null;
  /** Distinct users (sessions that named a `did`), each once with their worst status. */
  users: number;
  crashedUsers: number;
  /** 0..1; null without users. */
  crashFreeUsers: number | null;
  /** Users not tracked because a day's bucket was full (then `users` is a lower bound). */
  untrackedUsers: number;
  /** 0..1: this release's share of the project's sessions in the last 24 hours; null when there were none. */
  adoption: number | null;
  series: HealthPoint[];
}

/** A rate for display, e.g. "99.2 %". Crash-free rates round down, so only a clean release shows 100 %. */
export function formatRate(rate: number | null, mode: "down" | "nearest" = "down"): string {
  if (rate === null) return "—";
  const tenths = mode === "down" ? Math.floor(rate * 1000 + 1e-9) : Math.round(rate * 1000);
  const clamped = Math.min(1000, Math.max(0, tenths));
  return `${clamped % 10 === 0 ? String(clamped / 10) : (clamped / 10).toFixed(1)} %`;
}

const ratio = (bad: number, all: number) => (all > 0 ? Math.max(0, 1 - bad / all) : null);

/** The bucket size of a chart over `since`..`now`: hours up to two days, days beyond. */
export const bucketSize = (since: number, now: number) => (now - since <= 2 * DAY ? HOUR : DAY);

/**
 * A release's health from what the store returns for it: its session counts (per hour and
 * status), its errored sessions (per hour, by worst status) and its users (by worst status).
 * The chart has one point per bucket from `since` to `now`.
 */
export function computeHealth(input: {
  counts: readonly SessionCountRow[];
  erroredSessions: readonly (WorstCountRow & { hour: number })[];
  users: readonly WorstCountRow[];
  startedLastDay: number;
  projectStartedLastDay: number;
  since: number;
  now: number;
}): ReleaseHealth {
  const size = bucketSize(input.since, input.now);
  const first = Math.floor(input.since / size) * size;
  const points: HealthPoint[] = [];
  for (let t = first; t <= input.now; t += size)
    points.push({ start: t, sessions: 0, healthy: 0, errored: 0, unhandled: 0, abnormal: 0, crashed: 0, crashFree: null });
  const at = (hour: number) => points[Math.floor((Math.floor(hour / size) * size - first) / size)];
  let untrackedUsers = 0;
  for (const c of input.counts) {
    if (c.status === "untracked_user") {
      untrackedUsers += c.quantity;
      continue;
    }
    const p = at(c.hour);
    if (!p) continue;
    if (c.status === "started") p.sessions += c.quantity;
    else if (c.status === "crashed") p.crashed += c.quantity;
    else if (c.status === "abnormal") p.abnormal += c.quantity;
    else if (c.status === "unhandled") p.unhandled += c.quantity;
    else if (c.status === "errored") p.errored += c.quantity;
  }
  // A session kept by its id counts as errored only when its worst status was an error: a crash counts as a crash (by its status).
  for (const e of input.erroredSessions) {
    const p = at(e.hour);
    if (p && e.worst === HEALTH_RANK.errored) p.errored += e.n;
  }
  for (const p of points) {
    p.healthy = Math.max(0, p.sessions - p.errored - p.unhandled - p.abnormal - p.crashed);
    p.crashFree = ratio(p.crashed, p.sessions);
  }
  const sum = (key: "sessions" | "errored" | "unhandled" | "abnormal" | "crashed") => points.reduce((s, p) => s + p[key], 0);
  const sessions = sum("sessions");
  const crashed = sum("crashed");
  const users = input.users.reduce((s, u) => s + u.n, 0);
  const crashedUsers = input.users.filter((u) => u.worst === HEALTH_RANK.crashed).reduce((s, u) => s + u.n, 0);
  return {
    sessions,
    errored: sum("errored"),
    unhandled: sum("unhandled"),
    abnormal: sum("abnormal"),
    crashed,
    crashFreeSessions: ratio(crashed, sessions),
    users,
    crashedUsers,
    crashFreeUsers: ratio(crashedUsers, users),
    untrackedUsers,
    adoption: input.projectStartedLastDay > 0 ? input.startedLastDay / input.projectStartedLastDay : null,
    series: points,
  };
}
