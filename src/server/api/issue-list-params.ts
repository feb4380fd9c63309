import { invalidInput } from "../../core/errors";

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Sentry's `statsPeriod` (`24h`, `14d`, `2w`), in milliseconds. */
export function periodMs(text: string): number {
  const m = /^(\d{1,6})([smhdw])$/.exec(text);
  if (!m?.[1] || !m[2]) throw invalidInput(`statsPeriod must be a number and a unit (s, m, h, d or w), like 24h or 14d, not "${text}"`);
  return Number(m[1]) * (UNIT_MS[m[2]] ?? 0);
}

/** `start` and `end` as Sentry takes them: ISO 8601, UTC when no zone is given (as Grafana sends them). */
export function instant(name: string, text: string): number {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || !/T/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  if (!Number.isFinite(ms)) throw invalidInput(`${name} must be an ISO 8601 date or date-time, not "${text}"`);
  return ms;
}

/** A value in the search syntax, quoted so that spaces, commas and brackets stay inside it, and `*` is no wildcard. */
export const quoted = (value: string) => `"${value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("*", "\\*")}"`;

/**
 * The organization issue list's filters besides the query, folded into it: `environment`
 * (repeated, matching one of them) as the search's `environment:` key, and the time range as issues
 * seen within it — last seen since its start (`since`), first seen before its end.
 */
export function issueQueryFrom(query: URLSearchParams, base: string, now: number): { text: string; since: number | undefined } {
  const terms = [base];
  const environments = query.getAll("environment").filter((e) => e !== "");
  if (environments.length > 0) terms.push(`environment:[${environments.map(quoted).join(", ")}]`);
  const start = query.get("start");
  const end = query.get("end");
  const period = query.get("statsPeriod");
  let since: number | undefined;
  if (start || end) {
    if (!start || !end) throw invalidInput("send start and end together, or statsPeriod");
    since = instant("start", start);
    terms.push(`firstSeen:<=${new Date(instant("end", end)).toISOString()}`);
  } else if (period) since = now - periodMs(period);
  return { text: terms.filter((t) => t.trim() !== "").join(" "), since };
}
