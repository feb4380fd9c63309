import { invalidInput } from "../../core/errors";
import { projectInOrg, listProjects } from "../../core/projects/queries";
import {
  legacyProjectStats,
  outcomeStats,
  STATS_FIELDS,
  STATS_GROUP_KEYS,
  type StatsField,
  type StatsGroupKey,
} from "../../core/outcomes/stats";
import { instant, periodMs } from "./issue-list-params";
import { route, type ApiRoute } from "./route";

const DAY = 86_400_000;

/** `start`/`end`, else `statsPeriod` back from now (a day when neither is sent). */
function rangeOf(query: URLSearchParams, now: number): { start: number; end: number } {
  const start = query.get("start");
  const end = query.get("end");
  if (start || end) {
    if (!start || !end) throw invalidInput("send start and end together, or statsPeriod");
    return { start: instant("start", start), end: instant("end", end) };
  }
  const period = query.get("statsPeriod");
  return { start: now - (period ? periodMs(period) : DAY), end: now };
}

function oneOf<T extends string>(name: string, allowed: readonly T[], values: string[]): T[] {
  for (const v of values)
    if (!(allowed as readonly string[]).includes(v)) throw invalidInput(`${name} must be one of ${allowed.join(", ")}, not "${v}"`);
  return values as T[];
}

/** Sentry writes these instants without milliseconds. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Sentry's legacy `resolution`: 1h or 1d (outcomes are stored by hour, so no 10s). */
const RESOLUTIONS: Record<string, number> = { "1h": 3_600_000, "1d": DAY };

/**
 * The Stats page's numbers over the API: Sentry's `GET /api/0/organizations/{org}/stats_v2/`
 * (https://docs.sentry.io/api/organizations/retrieve-event-counts-for-an-organization-v2/) and
 * the legacy `GET /api/0/projects/{org}/{project}/stats/`, both read from the outcome counts.
 */
export const STATS_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/stats_v2", "org:read", async ({ ctx, access, query }) => {
    const fields = oneOf<StatsField>("field", STATS_FIELDS, query.getAll("field"));
    if (fields.length === 0) throw invalidInput(`field is required: ${STATS_FIELDS.join(" or ")}`);
    const groupBy = oneOf<StatsGroupKey>("groupBy", STATS_GROUP_KEYS, query.getAll("groupBy"));
    const wanted = new Set(query.getAll("project").filter((p) => p !== "" && p !== "-1"));
    // Projects the caller cannot see are left out, as Sentry does, rather than refused.
    const projects = (await listProjects(ctx, access)).filter((p) => wanted.size === 0 || wanted.has(String(p.id)));
    const interval = periodMs(query.get("interval") ?? "1h");
    const list = (name: string) =>
      query
        .getAll(name)
        .flatMap((v) => v.split(","))
        .filter((v) => v !== "");
    const stats = await outcomeStats(ctx, {
      ...rangeOf(query, Date.now()),
      projectIds: projects.map((p) => p.id),
      interval,
      fields,
      groupBy,
      category: list("category"),
      outcome: list("outcome"),
      reason: list("reason"),
    });
    return { start: iso(stats.start), end: iso(stats.end), intervals: stats.intervals.map(iso), groups: stats.groups };
  }),
  route("GET", "/projects/{}/{}/stats", "project:read", async ({ ctx, access, params: [, slug], query }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const resolution = query.get("resolution") ?? "1h";
    const interval = RESOLUTIONS[resolution];
    if (!interval) throw invalidInput(`resolution must be 1h or 1d, not "${resolution}"`);
    const seconds = (name: string) => {
      const text = query.get(name);
      if (text === null || text === "") return undefined;
      const value = Number(text);
      if (!Number.isFinite(value)) throw invalidInput(`${name} must be a Unix timestamp in seconds, not "${text}"`);
      return value * 1000;
    };
    const end = seconds("until") ?? Date.now();
    const start = seconds("since") ?? end - DAY;
    return legacyProjectStats(ctx, { projectId: project.id, stat: query.get("stat") ?? "received", start, end, interval });
  }),
];
