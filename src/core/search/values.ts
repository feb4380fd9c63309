/**
 * Typed values: numbers, dates and actors, read from the text of one value. Each returns
 * null when the text is not of its kind; the caller words the message.
 */
import type { Actor, CompareOp, DateValue, RelativeUnit } from "./ast";

const OPERATOR = /^(>=|<=|>|<|=)?([\s\S]*)$/;

function splitOperator(text: string): { op: CompareOp | null; rest: string } {
  const m = OPERATOR.exec(text)!;
  return { op: (m[1] as CompareOp | undefined) ?? null, rest: m[2]! };
}

/** `10`, `>10`, `>=1.5k` (Sentry's `k`, `m`, `b` multipliers): a whole, safe integer. */
export function parseCount(text: string): { op: CompareOp; value: number } | null {
  const { op, rest } = splitOperator(text);
  const m = /^(\d{1,20}(?:\.\d{1,20})?)([kmb])?$/i.exec(rest);
  if (!m) return null;
  const multiplier = { k: 1e3, m: 1e6, b: 1e9 }[m[2]?.toLowerCase() as "k" | "m" | "b"] ?? 1;
  const value = Math.round(Number(m[1]) * multiplier * 1e6) / 1e6;
  if (!Number.isSafeInteger(value)) return null;
  return { op: op ?? "=", value };
}

export type DateParse = { ok: true; value: DateValue } | { ok: false; reason: "relative-with-operator" | "invalid" };

/**
 * `-24h` / `+7d` (Sentry's `rel_date_format`: `[+-][0-9]+[wdhm]`), or an ISO 8601 date or
 * date-time with an optional operator. A date-time without a zone is UTC, as in Sentry.
 */
export function parseDate(text: string): DateParse {
  const { op, rest } = splitOperator(text);
  const rel = /^([+-])(\d{1,6})([mhdw])$/.exec(rest);
  if (rel) {
    if (op) return { ok: false, reason: "relative-with-operator" };
    return { ok: true, value: { kind: "relative", sign: rel[1] as "+" | "-", amount: Number(rel[2]), unit: rel[3] as RelativeUnit } };
  }
  const abs = parseIsoDate(rest);
  if (!abs) return { ok: false, reason: "invalid" };
  return { ok: true, value: { kind: "absolute", op: op ?? "=", ...abs } };
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/i;

export function parseIsoDate(text: string): { ms: number; precision: "day" | "time" } | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  if (m[4] === undefined) return inRange(d.getTime(), "day");
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  let ms = d.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== "Z") {
    const [zh, zm] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (zh > 23 || zm > 59) return null;
    ms -= (zone[0] === "-" ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  return inRange(ms, "time");
}

/** From 1970 to 9999: what millisecond timestamps mean here, and what prints back as ISO. */
function inRange(ms: number, precision: "day" | "time"): { ms: number; precision: "day" | "time" } | null {
  return ms >= 0 && ms < Date.UTC(10000, 0, 1) ? { ms, precision } : null;
}

export function formatIsoDate(ms: number, precision: "day" | "time"): string {
  const iso = new Date(ms).toISOString();
  return precision === "day" ? iso.slice(0, 10) : iso;
}

export type ActorParse = { ok: true; actor: Actor } | { ok: false; reason: "team" | "unknown" };

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** `me`, `none` (assignee only), or an email; teams (`#team`, `my_teams`) do not exist here. */
export function parseActor(text: string, allowNone: boolean): ActorParse {
  const lower = text.trim().toLowerCase();
  if (lower === "me") return { ok: true, actor: { kind: "me" } };
  if (allowNone && lower === "none") return { ok: true, actor: { kind: "none" } };
  // Teams can be assignees, not bookmarkers; `my_teams` is not supported yet.
  if (allowNone && /^#[a-z0-9][a-z0-9_-]*$/.test(lower)) return { ok: true, actor: { kind: "team", slug: lower.slice(1) } };
  if (lower.startsWith("#") || lower === "my_teams") return { ok: false, reason: "team" };
  if (EMAIL.test(lower)) return { ok: true, actor: { kind: "email", email: lower } };
  return { ok: false, reason: "unknown" };
}
