import { createHash } from "node:crypto";
import type { EnvelopeItem } from "../../envelope/index";
import { scrubSessionAttrs } from "../../normalize/scrub-items";
import { parseTimestamp } from "../../normalize/timestamps";
import { HEALTH_RANK, type SessionMemberRecord } from "../records";
import { num, obj, readJson, str } from "../read";
import { outcome, type Stage, type StageContext } from "../stage";

const HOUR = 3_600_000;
const DAY = 86_400_000;
/**
 * Buckets stored from one `sessions` item: each becomes up to six counts, and their start
 * times are the SDK's, so the cap bounds the rows one item can make. The rest are counted.
 */
export const MAX_SESSION_BUCKETS = 100;

const releaseOf = (attrs: Record<string, unknown>) => (str(attrs.release) ?? "").slice(0, 200);
const environmentOf = (attrs: Record<string, unknown>) => (str(attrs.environment) ?? "production").slice(0, 64);

function count(c: StageContext, at: number, attrs: Record<string, unknown>, status: string, quantity: number): void {
  if (quantity <= 0) return;
  c.records.sessions.push({
    projectId: c.projectId,
    hour: Math.floor(at / HOUR) * HOUR,
    release: releaseOf(attrs),
    environment: environmentOf(attrs),
    status,
    quantity,
  });
}

/** A member's id as stored: a hash with the project in it, never the `did` or `sid` as sent. */
export function memberHash(projectId: number, kind: SessionMemberRecord["kind"], id: string): string {
  return createHash("sha256").update(`${projectId}\u0000${kind}\u0000${id}`).digest("hex").slice(0, 24);
}

function member(
  c: StageContext,
  kind: SessionMemberRecord["kind"],
  at: number,
  attrs: Record<string, unknown>,
  id: string,
  worst: number,
): void {
  const size = kind === "user" ? DAY : HOUR;
  c.records.sessionMembers.push({
    projectId: c.projectId,
    kind,
    bucket: Math.floor(at / size) * size,
    release: releaseOf(attrs),
    environment: environmentOf(attrs),
    member: memberHash(c.projectId, kind, id.slice(0, 1000)),
    worst,
  });
}

/** When a session started (ms): its `started` when that is a timestamp in range, else `fallback`. */
const sessionTime = (value: unknown, fallback: number) => {
  const seconds = parseTimestamp(value);
  return seconds === undefined ? fallback : Math.round(seconds * 1000);
};

/**
 * The most sessions one bucket may count per status, as client reports cap their quantities:
 * far above any real minute of one release, and far below what a bigint column holds summed.
 */
export const MAX_BUCKET_COUNT = 1_000_000_000;

/** The worst status one update shows: its status, or errored when it counted errors. */
export function updateRank(status: string | undefined, errors: number): number {
  if (status === "crashed") return HEALTH_RANK.crashed;
  if (status === "abnormal") return HEALTH_RANK.abnormal;
  if (status === "unhandled") return HEALTH_RANK.unhandled;
  if (status === "errored" || errors > 0) return HEALTH_RANK.errored;
  return HEALTH_RANK.ok;
}

/**
 * A single session update (https://develop.sentry.dev/sdk/telemetry/sessions/). The SDK resends
 * the whole session on every change, so each fact is taken from the one update that carries it
 * once: the session is counted by its `init` update; `crashed`, `abnormal`, `unhandled` and
 * `exited` are final statuses, sent once. A session that errs is sent again with `errors` > 0 (the browser SDK then
 * keeps status `ok`, Node's ends `exited`, and either may crash later): it is kept by its `sid`
 * with its worst status, so it is counted errored once. Its user (`did`) is kept per day with the
 * worst status they had, for crash-free users.
 */
export const sessionStage: Stage = {
  name: "session",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw) || !obj(raw.attrs) || !str(raw.attrs.release)) return outcome(c, "session", "invalid", "invalid_session");
    scrubSessionAttrs(raw.attrs, c.options.scrubbing);
    const at = sessionTime(raw.started, c.receivedAt);
    if (raw.init === true) count(c, at, raw.attrs, "started", 1);
    const status = str(raw.status);
    if (status === "exited" || status === "crashed" || status === "abnormal" || status === "unhandled") count(c, at, raw.attrs, status, 1);
    const rank = updateRank(status, num(raw.errors) ?? 0);
    const sid = str(raw.sid);
    if (rank > HEALTH_RANK.ok) {
      if (sid) member(c, "session", at, raw.attrs, sid, rank);
      // Without a session id an errored session cannot be told from its next update: counted at its end only.
      else if (rank === HEALTH_RANK.errored && (status === "exited" || status === "errored")) count(c, at, raw.attrs, "errored", 1);
    }
    const did = str(raw.did);
    if (did) member(c, "user", at, raw.attrs, did, rank);
    outcome(c, "session", "accepted", "");
  },
};

/**
 * Pre-aggregated sessions (server SDKs): counts per started minute, each session in one final
 * status (`exited`, `errored`, `unhandled`, `abnormal` or `crashed`); a bucket may name its user (`did`). Accounted per bucket, the
 * unit an aggregate item carries (a single `session` item is one): each bucket is stored or
 * counted `invalid_session_bucket` (not an object, or a count above MAX_BUCKET_COUNT) /
 * `too_many_session_buckets`; an item with no bucket at all still counts once.
 */
export const sessionsStage: Stage = {
  name: "sessions",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw) || !Array.isArray(raw.aggregates) || !obj(raw.attrs)) return outcome(c, "session", "invalid", "invalid_sessions");
    scrubSessionAttrs(raw.attrs, c.options.scrubbing);
    const buckets = raw.aggregates;
    if (buckets.length === 0) return outcome(c, "session", "accepted", "");
    const kept = Math.min(buckets.length, MAX_SESSION_BUCKETS);
    let accepted = 0;
    for (let i = 0; i < kept; i++) {
      const bucket: unknown = buckets[i];
      if (!obj(bucket)) continue;
      const at = sessionTime(bucket.started, c.receivedAt);
      const counts = ["exited", "errored", "unhandled", "abnormal", "crashed"].map(
        (s) => [s, Math.max(0, Math.floor(num(bucket[s]) ?? 0))] as const,
      );
      if (counts.some(([, n]) => n > MAX_BUCKET_COUNT)) continue;
      count(
        c,
        at,
        raw.attrs,
        "started",
        counts.reduce((sum, [, n]) => sum + n, 0),
      );
      for (const [status, n] of counts) count(c, at, raw.attrs, status, n);
      const did = str(bucket.did);
      if (did) {
        const has = (status: string) => counts.some(([s, n]) => s === status && n > 0);
        const worst = (["crashed", "abnormal", "unhandled", "errored"] as const).find(has);
        member(c, "user", at, raw.attrs, did, worst ? HEALTH_RANK[worst] : HEALTH_RANK.ok);
      }
      accepted++;
    }
    outcome(c, "session", "accepted", "", accepted);
    outcome(c, "session", "invalid", "invalid_session_bucket", kept - accepted);
    outcome(c, "session", "invalid", "too_many_session_buckets", buckets.length - kept);
  },
};
