/**
 * Discover (Sentry's `events/` and `events-stats/`), as Grafana's Sentry data source asks for
 * it (github.com/grafana/sentry-datasource, pkg/sentry/events.go and events_stats.go):
 * repeated `field`, `project`, `environment` and `yAxis`, `start`/`end` or `statsPeriod`.
 */
import { invalidInput } from "../../core/errors";
import { discoverStats, discoverTable } from "../../core/discover/run";
import type { DiscoverInput } from "../../core/discover/plan";
import { listProjects } from "../../core/projects/queries";
import type { Ctx } from "../../core/context";
import type { OrgAccess } from "../../core/orgs/access";
import { instant, periodMs, quoted } from "./issue-list-params";
import { projectsOf } from "./org-issue-routes";
import { pagedJson } from "./pagination";
import { route, type ApiRoute } from "./route";

const DAY_MS = 86_400_000;

async function inputOf(ctx: Ctx, access: OrgAccess, query: URLSearchParams): Promise<DiscoverInput> {
  const projects = projectsOf(query, await listProjects(ctx, access));
  const start = query.get("start");
  const end = query.get("end");
  if ((start === null) !== (end === null)) throw invalidInput("send start and end together, or statsPeriod");
  const now = ctx.now();
  const range = start && end ? [instant("start", start), instant("end", end)] : [now - periodMs(query.get("statsPeriod") || "14d"), now];
  const [from = now - DAY_MS, to = now] = range;
  const environments = query.getAll("environment").filter((e) => e !== "");
  const text = [query.get("query") ?? "", environments.length ? `environment:[${environments.map(quoted).join(", ")}]` : ""];
  const perPage = Math.min(100, Math.max(1, Number(query.get("per_page") ?? 50) || 50));
  const offset = Number(/^\d+:(\d{1,9}):\d+$/.exec(query.get("cursor") ?? "")?.[1] ?? 0);
  return {
    dataset: query.get("dataset"),
    fields: query.getAll("field").filter((f) => f !== ""),
    query: text.filter((t) => t.trim() !== "").join(" "),
    sort: query.get("sort") || null,
    projectIds: projects.map((p) => p.id),
    start: from / 1000,
    end: to / 1000,
    limit: perPage,
    offset,
  };
}

export const DISCOVER_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/events", "issue:read", async ({ ctx, access, query }) => {
    const input = await inputOf(ctx, access, query);
    const { data, hasMore } = await discoverTable(ctx, input);
    const cursor = (offset: number) => `0:${offset}:0`;
    const page = {
      previousCursor: input.offset > 0 ? cursor(Math.max(0, input.offset - input.limit)) : null,
      nextCursor: hasMore ? cursor(input.offset + input.limit) : null,
    };
    const meta = { fields: Object.fromEntries(input.fields.map((f) => [f, typeof data[0]?.[f] === "number" ? "integer" : "string"])) };
    return pagedJson({ data, meta }, `${ctx.publicUrl}/api/0/organizations/${access.org.slug}/events/`, query, page);
  }),
  route("GET", "/organizations/{}/events-stats", "issue:read", async ({ ctx, access, query }) => {
    const input = await inputOf(ctx, access, query);
    const interval = periodMs(query.get("interval") || "1h") / 1000;
    if (interval < 1 || (input.end - input.start) / interval > 10_000) throw invalidInput("interval is too small for the time range");
    const topEvents = Math.min(10, Math.max(0, Number(query.get("topEvents") ?? 0) || 0));
    return discoverStats(ctx, input, {
      yAxis: query.getAll("yAxis").filter((y) => y !== ""),
      intervalSeconds: interval,
      partial: query.get("partial") === "1",
      topEvents,
      excludeOther: query.get("excludeOther") === "1",
    });
  }),
];
