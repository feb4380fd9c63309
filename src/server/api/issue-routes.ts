import type { Ctx } from "../../core/context";
import { invalidInput, notFound } from "../../core/errors";
import { rowIdOf } from "../../core/identifiers";
import { attachmentDownload } from "../../core/issues/attachments";
import { issueExtras } from "../../core/issues/extras";
import {
  eventInProject,
  eventSurroundings,
  issueByShortId,
  issueEventAt,
  issueEventsPage,
  issueInOrg,
  issueIsUnhandled,
  type StoredEvent,
} from "../../core/issues/queries";
import { changeIssues } from "../../core/issues/triage";
import { issueChangeBody } from "./issue-change-body";
import { projectInOrg } from "../../core/projects/queries";
import { traceInOrg } from "../../core/traces/trace";
import type { User } from "../../core/accounts/user";
import type { OrgScope } from "../../core/orgs/access";
import { serializeIssue } from "./serialize-issues";
import { serializeEvent } from "./serialize-event";
import { DEFAULT_QUERY, listIssues, SORTS, type Sort } from "../../core/issues/list";
import { pagedJson } from "./pagination";
import { RawResponse } from "./raw";
import { route, type ApiRoute, type HandlerArgs } from "./route";

/** `{issue_id}` is a numeric id or a short id (`WEB-1A`), as in Sentry. */
export async function findIssue(ctx: Ctx, scope: OrgScope, ref: string) {
  // All digits is a numeric id, however long; one no row can have is simply not found.
  const id = /^\d+$/.test(ref) ? rowIdOf(ref) : ((await issueByShortId(ctx, scope, ref))?.id ?? null);
  if (id === null) throw notFound(`issue ${ref} does not exist`);
  return { org: scope.org, ...(await issueInOrg(ctx, scope, id)) };
}

export async function issueJson(ctx: Ctx, user: User, scope: OrgScope, ref: string) {
  const { org, issue, project } = await findIssue(ctx, scope, ref);
  const extras = (await issueExtras(ctx, [issue], user, { hourly: true })).get(issue.id)!;
  return serializeIssue(issue, project, ctx.publicUrl, org.slug, extras, { unhandled: await issueIsUnhandled(ctx, issue.id) });
}

/** One event as Sentry's event detail answers it, with its issue's culprit and neighbours. */
export async function eventJson(ctx: Ctx, scope: OrgScope, event: StoredEvent, projectSlug: string) {
  return serializeEvent(event, projectSlug, await eventSurroundings(ctx, scope, event));
}

/** `?limit=`, 1 to 100, `fallback` when absent or not a number. */
export const limitOf = (query: URLSearchParams, fallback = 50) =>
  Math.min(100, Math.max(1, Number(query.get("limit") ?? fallback) || fallback));

export const ISSUE_ROUTES: ApiRoute[] = [
  route("GET", "/projects/{}/{}/issues", "issue:read", async ({ ctx, user, access, params: [, projectSlug], query }) => {
    const project = await projectInOrg(ctx, access, projectSlug ?? "");
    const sort = query.get("sort") ?? "date";
    if (!(sort in SORTS)) throw invalidInput(`sort must be one of ${Object.keys(SORTS).join(", ")}`);
    const result = await listIssues(ctx, {
      projectIds: [project.id],
      query: query.get("query") ?? DEFAULT_QUERY,
      sort: sort as Sort,
      cursor: query.get("cursor") ?? undefined,
      limit: limitOf(query),
      user,
    });
    if (!result.ok) throw invalidInput(`invalid search query: ${result.error.message}`);
    const extras = await issueExtras(ctx, result.issues, user, { hourly: true });
    const body = result.issues.map((i) => serializeIssue(i, project, ctx.publicUrl, access.org.slug, extras.get(i.id)!));
    return pagedJson(body, `${ctx.publicUrl}/api/0/projects/${access.org.slug}/${project.slug}/issues/`, query, result);
  }),
  route("GET", "/organizations/{}/issues/{}", "issue:read", ({ ctx, user, access, params: [, ref] }) =>
    issueJson(ctx, user, access, ref ?? ""),
  ),
  route("PUT", "/organizations/{}/issues/{}", "issue:triage", async ({ ctx, user, access, params: [, ref], body }) => {
    const { issue, project } = await findIssue(ctx, access, ref ?? "");
    for (const change of issueChangeBody(body, false).changes)
      await changeIssues({ ctx, input: { projectIds: [project.id], issueIds: [issue.id], user, change } });
    return issueJson(ctx, user, access, String(issue.id));
  }),
  route("GET", "/organizations/{}/issues/{}/events", "issue:read", async ({ ctx, access, params: [, ref], query }) => {
    const { issue, project } = await findIssue(ctx, access, ref ?? "");
    const page = await issueEventsPage(ctx, issue.id, { limit: limitOf(query), cursor: query.get("cursor") ?? undefined });
    const body = page.rows.map((e) => serializeEvent(e, project.slug, { issueCulprit: issue.culprit }));
    return pagedJson(body, `${ctx.publicUrl}/api/0/organizations/${access.org.slug}/issues/${ref ?? ""}/events/`, query, page);
  }),
  ...(["latest", "oldest"] as const).map((which) =>
    route("GET", `/organizations/{}/issues/{}/events/${which}`, "issue:read", async ({ ctx, access, params: [, ref] }: HandlerArgs) => {
      const { issue, project } = await findIssue(ctx, access, ref ?? "");
      const event = await issueEventAt(ctx, issue.id, which);
      if (!event) throw notFound("this issue has no stored events");
      return eventJson(ctx, access, event, project.slug);
    }),
  ),
  route("GET", "/projects/{}/{}/events/{}", "issue:read", async ({ ctx, access, params: [, projectSlug, eventId] }) => {
    const project = await projectInOrg(ctx, access, projectSlug ?? "");
    return eventJson(ctx, access, await eventInProject(ctx, project.id, eventId ?? ""), project.slug);
  }),
  route(
    "GET",
    "/projects/{}/{}/events/{}/attachments/{}",
    "issue:read",
    async ({ ctx, access, params: [, projectSlug, eventId, attachmentId] }) => {
      const project = await projectInOrg(ctx, access, projectSlug ?? "");
      const id = rowIdOf(attachmentId ?? "");
      if (id === null) throw notFound("attachment not found");
      const attachment = await attachmentDownload(ctx, project.id, eventId ?? "", id);
      return new RawResponse(attachment.name, attachment.size, attachment.chunks);
    },
  ),
  route("GET", "/organizations/{}/trace/{}", "issue:read", ({ ctx, access, params: [, traceId] }) =>
    traceInOrg(ctx, access, traceId ?? ""),
  ),
];
