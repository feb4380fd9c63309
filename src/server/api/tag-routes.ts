import { listProjects } from "../../core/projects/queries";
import { tagKeyValues } from "../../core/issues/tag-suggestions";
import { route, type ApiRoute } from "./route";

/**
 * Sentry's `GET /api/0/organizations/{org}/tags/{key}/values/`: the values of one tag in
 * the organization's issues, most seen first; `query` filters by prefix, `project` (an id,
 * repeatable) narrows the projects. https://docs.sentry.io/api/events/list-a-tags-values/
 */
export const TAG_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/tags/{}/values", "issue:read", async ({ ctx, access, params: [, key], query }) => {
    const wanted = new Set(query.getAll("project").map(Number));
    const projects = (await listProjects(ctx, access)).filter((p) => wanted.size === 0 || wanted.has(p.id));
    const tagKey = key ?? "";
    const values = await tagKeyValues(
      ctx,
      projects.map((p) => p.id),
      tagKey,
      { prefix: query.get("query") ?? undefined, limit: 100 },
    );
    return values.map((v) => ({
      key: tagKey,
      name: v.value,
      value: v.value,
      count: v.count,
      firstSeen: new Date(v.firstSeen).toISOString(),
      lastSeen: new Date(v.lastSeen).toISOString(),
    }));
  }),
];
