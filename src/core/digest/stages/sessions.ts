import type { EnvelopeItem } from "../../envelope/index";
import { scrubSessionAttrs } from "../../normalize/scrub-items";
import { num, obj, readJson, str } from "../read";
import { outcome, type Stage, type StageContext } from "../stage";

const HOUR = 3_600_000;
/**
 * Buckets stored from one `sessions` item: each becomes up to five counts, and their start
 * times are the SDK's, so the cap bounds the rows one item can make. The rest are counted.
 */
export const MAX_SESSION_BUCKETS = 100;

function count(c: StageContext, at: number, attrs: Record<string, unknown>, status: string, quantity: number): void {
  if (quantity <= 0) return;
  c.records.sessions.push({
    projectId: c.projectId,
    hour: Math.floor(at / HOUR) * HOUR,
    release: (str(attrs.release) ?? "").slice(0, 200),
    environment: (str(attrs.environment) ?? "production").slice(0, 64),
    status,
    quantity,
  });
}

const sessionTime = (value: unknown, fallback: number) => {
  const t = typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value * 1000 : NaN;
  return Number.isFinite(t) ? t : fallback;
};

/** A single session update: `init` starts it; a final status ends it (https://develop.sentry.dev/sdk/telemetry/sessions/). */
export const sessionStage: Stage = {
  name: "session",
  run(c: StageContext, item: EnvelopeItem): void {
    const raw = readJson(item.payload);
    if (!obj(raw) || !obj(raw.attrs) || !str(raw.attrs.release)) return outcome(c, "session", "invalid", "invalid_session");
    scrubSessionAttrs(raw.attrs, c.options.scrubbing);
    const at = sessionTime(raw.started, c.receivedAt);
    if (raw.init === true) count(c, at, raw.attrs, "started", 1);
    const status = str(raw.status);
    if (status === "exited" || status === "crashed" || status === "abnormal" || status === "errored") count(c, at, raw.attrs, status, 1);
    if (status === "exited" && (num(raw.errors) ?? 0) > 0) count(c, at, raw.attrs, "errored", 1);
    outcome(c, "session", "accepted", "");
  },
};

/**
 * Pre-aggregated sessions (server SDKs): counts per started minute. Accounted per bucket, the
 * unit an aggregate item carries (a single `session` item is one): each bucket is stored or
 * counted `invalid_session_bucket` / `too_many_session_buckets`; an item with no bucket at all
 * still counts once.
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
      const counts = ["exited", "errored", "abnormal", "crashed"].map((s) => [s, Math.max(0, Math.floor(num(bucket[s]) ?? 0))] as const);
      count(
        c,
        at,
        raw.attrs,
        "started",
        counts.reduce((sum, [, n]) => sum + n, 0),
      );
      for (const [status, n] of counts) count(c, at, raw.attrs, status, n);
      accepted++;
    }
    outcome(c, "session", "accepted", "", accepted);
    outcome(c, "session", "invalid", "invalid_session_bucket", kept - accepted);
    outcome(c, "session", "invalid", "too_many_session_buckets", buckets.length - kept);
  },
};
