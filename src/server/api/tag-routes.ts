import { issueTagKey, issueTagKeys, issueTagValuesPage, projectTagKeys } from "../../core/issues/issue-tags";
import { tagKeyValues } from "../../core/issues/tag-suggestions";
import { listProjects, projectInOrg } from "../../core/projects/queries";
import { findIssue, limitOf } from "./issue-routes";
import { issueQueryFrom } from "./issue-list-params";
import { projectsOf } from "./org-issue-routes";
import { pagedJson } from "./pagination";
import { route, type ApiRoute } from "./route";
import { serializeIssueTagKey, serializeTagKey, serializeTagValue } from "./serialize-tags";

/** Values per key in an issue's tag list unless `limit` says (Sentry's Tags tab shows ten). */
const TOP_VALUES = 10;
/** Values in one key's details, as Sentry's tag distribution bars show them. */
const DETAIL_VALUES = 9;

/**
 * Sentry's tag endpoints (https://docs.sentry.io/api/events/retrieve-tag-details/,
 * https://docs.sentry.io/api/events/list-a-tags-values-related-to-an-issue/), read from the
 * per-issue tag index. `environment` is not applied: that index counts values per issue, not
 * per environment.
 */
export const TAG_ROUTES: ApiRoute[] = [
  // The values of one tag in the organization's issues, most seen first; `query` filters by prefix.
  route("GET", "/organizations/{}/tags/{}/values", "issue:read", async ({ ctx, access, params: [, key], query }) => {
    const projects = projectsOf(query, await listProjects(ctx, access));
    const tagKey = key ?? "";
    const options = { prefix: query.get("query") ?? undefined, limit: 100 };
    const values = await tagKeyValues(
      ctx,
      projects.map((p) => p.id),
      tagKey,
      options,
    );
    return values.map((v) => serializeTagValue(tagKey, v));
  }),
  // The organization's tag keys: `project` repeated ids, `statsPeriod` or `start`/`end` (values seen since).
  route("GET", "/organizations/{}/tags", "issue:read", async ({ ctx, access, query }) => {
    const projects = projectsOf(query, await listProjects(ctx, access));
    const { since } = issueQueryFrom(query, "", ctx.now());
    return (
      await projectTagKeys(
        ctx,
        projects.map((p) => p.id),
        since,
      )
    ).map(serializeTagKey);
  }),
  route("GET", "/projects/{}/{}/tags", "project:read", async ({ ctx, access, params: [, projectSlug] }) => {
    const project = await projectInOrg(ctx, access, projectSlug ?? "");
    return (await projectTagKeys(ctx, [project.id])).map(serializeTagKey);
  }),
  // Every key of the issue (or those `key` names, repeated) with its `limit` most seen values.
  route("GET", "/organizations/{}/issues/{}/tags", "issue:read", async ({ ctx, access, params: [, ref], query }) => {
    const { issue } = await findIssue(ctx, access, ref ?? "");
    const keys = query.getAll("key").filter((k) => k !== "");
    return (await issueTagKeys(ctx, issue.id, { keys, top: limitOf(query, TOP_VALUES) })).map(serializeIssueTagKey);
  }),
  route("GET", "/organizations/{}/issues/{}/tags/{}", "issue:read", async ({ ctx, access, params: [, ref, key] }) => {
    const { issue } = await findIssue(ctx, access, ref ?? "");
    return serializeIssueTagKey(await issueTagKey(ctx, issue.id, key ?? "", DETAIL_VALUES));
  }),
  route("GET", "/organizations/{}/issues/{}/tags/{}/values", "issue:read", async ({ ctx, access, params: [, ref, key], query }) => {
    const { issue } = await findIssue(ctx, access, ref ?? "");
    const page = await issueTagValuesPage(ctx, issue.id, key ?? "", {
      sort: query.get("sort"),
      cursor: query.get("cursor") || undefined,
      limit: limitOf(query, 100),
    });
    const base = `${ctx.publicUrl}/api/0/organizations/${access.org.slug}/issues/${ref ?? ""}/tags/${encodeURIComponent(key ?? "")}/values/`;
    return pagedJson(
      page.rows.map((v) => serializeTagValue(key ?? "", v)),
      base,
      query,
      page,
    );
  }),
];
