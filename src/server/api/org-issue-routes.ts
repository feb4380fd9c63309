import { invalidInput, notFound } from "../../core/errors";
import { rowIdOf } from "../../core/identifiers";
import { issueExtras } from "../../core/issues/extras";
import { eventInProject, issueByShortId, issueInOrg, projectEventsPage } from "../../core/issues/queries";
import { DEFAULT_QUERY, listIssues, SORTS, type Sort } from "../../core/issues/list";
import { listProjects, projectInOrg } from "../../core/projects/queries";
import type { Project } from "../../core/projects/project";
import { serializeEventSummary, serializeIssue } from "./serialize-issues";
import { pagedJson } from "./pagination";
import { route, type ApiRoute } from "./route";
import { issueQueryFrom } from "./issue-list-params";
import { eventJson, limitOf } from "./issue-routes";

/** `?project=` as Grafana and Sentry's UI send it: repeated ids, `-1` (or none) for every project one sees. */
export function projectsOf(query: URLSearchParams, visible: Project[]): Project[] {
  const asked = query.getAll("project").filter((p) => p !== "");
  if (asked.length === 0 || asked.includes("-1")) return visible;
  return asked.map((text) => {
    const id = rowIdOf(text);
    const project = id === null ? undefined : visible.find((p) => p.id === id);
    if (!project) throw notFound(`project ${text} does not exist`);
    return project;
  });
}

export const ORG_ISSUE_ROUTES: ApiRoute[] = [
  // What `sentry-cli events list` reads: 100 a page by default, paged by the Link header.
  route("GET", "/projects/{}/{}/events", "issue:read", async ({ ctx, access, params: [, projectSlug], query }) => {
    const project = await projectInOrg(ctx, access, projectSlug ?? "");
    const page = await projectEventsPage(ctx, project.id, { limit: limitOf(query, 100), cursor: query.get("cursor") || undefined });
    const body = page.rows.map((e) => serializeEventSummary(e));
    return pagedJson(body, `${ctx.publicUrl}/api/0/projects/${access.org.slug}/${project.slug}/events/`, query, page);
  }),
  route("GET", "/organizations/{}/issues", "issue:read", async ({ ctx, user, access, query }) => {
    const projects = projectsOf(query, await listProjects(ctx, access));
    const sort = query.get("sort") || "date";
    if (!(sort in SORTS)) throw invalidInput(`sort must be one of ${Object.keys(SORTS).join(", ")}`);
    const { text, since } = issueQueryFrom(query, query.get("query") ?? DEFAULT_QUERY, ctx.now());
    const result = await listIssues(ctx, {
      projectIds: projects.map((p) => p.id),
      query: text,
      sort: sort as Sort,
      cursor: query.get("cursor") || undefined,
      limit: limitOf(query, 25),
      user,
      since,
    });
    if (!result.ok) throw invalidInput(`invalid search query: ${result.error.message}`);
    const byId = new Map(projects.map((p) => [p.id, p]));
    const extras = await issueExtras(ctx, result.issues, user, { hourly: true });
    const body = result.issues.flatMap((i) => {
      const project = byId.get(i.project_id);
      const extra = extras.get(i.id);
      return project && extra ? [serializeIssue(i, project, ctx.publicUrl, access.org.slug, extra)] : [];
    });
    return pagedJson(body, `${ctx.publicUrl}/api/0/organizations/${access.org.slug}/issues/`, query, result);
  }),
  // Sentry's `eventids/` answer: where a grouped event is, and the event itself.
  route("GET", "/organizations/{}/eventids/{}", "issue:read", async ({ ctx, access, params: [, ref] }) => {
    const eventId = (ref ?? "").replaceAll("-", "").toLowerCase();
    const hits = /^[0-9a-f]{32}$/.test(eventId) ? await ctx.paletteLookup.eventsById(access.org.id, eventId, 10) : [];
    // Only in a project the caller sees: one outside their teams answers as if it had no such event.
    const visible = hits.length ? await listProjects(ctx, access) : [];
    for (const hit of hits) {
      const project = visible.find((p) => p.slug === hit.project);
      if (!project) continue;
      const event = await eventJson(ctx, access, await eventInProject(ctx, project.id, eventId), project.slug);
      return { organizationSlug: access.org.slug, projectSlug: project.slug, groupId: String(hit.issueId), eventId, event };
    }
    throw notFound(`event ${ref ?? ""} does not exist`);
  }),
  route("GET", "/organizations/{}/shortids/{}", "issue:read", async ({ ctx, user, access, params: [, ref] }) => {
    const found = await issueByShortId(ctx, access, ref ?? "");
    if (!found) throw notFound(`issue ${ref ?? ""} does not exist`);
    const { issue, project } = await issueInOrg(ctx, access, found.id);
    const extras = (await issueExtras(ctx, [issue], user, { hourly: true })).get(issue.id);
    if (!extras) throw notFound(`issue ${ref ?? ""} does not exist`);
    const group = serializeIssue(issue, project, ctx.publicUrl, access.org.slug, extras);
    return { organizationSlug: access.org.slug, projectSlug: project.slug, groupId: group.id, group, shortId: group.shortId };
  }),
];
