import { issueTarget } from "../../core/audit/targets";
import { invalidInput, notFound } from "../../core/errors";
import { rowIdOf } from "../../core/identifiers";
import { bulkSelection } from "../../core/issues/bulk";
import { shortId, type Issue } from "../../core/issues/issue";
import { changeIssues, deleteIssues, mergeIssues } from "../../core/issues/triage";
import type { Project } from "../../core/projects/project";
import { listProjects, projectInOrg } from "../../core/projects/queries";
import { issueChangeBody } from "./issue-change-body";
import { findIssue, issueJson } from "./issue-routes";
import { NoContent } from "./raw";
import { route, type ApiRoute, type HandlerArgs } from "./route";

/** The changes Sentry lets a bulk request make without ids: an implicit "update all" (sentry-cli's `-a`). */
const STATUS_ACTIONS = new Set(["resolve", "resolveInNextRelease", "resolveInRelease", "unresolve", "ignore"]);

/** The ids a request names (`?id=` repeated); one that can name no row is not found. */
function idsOf(query: URLSearchParams): number[] | null {
  const raw = query.getAll("id");
  if (raw.length === 0) return null;
  return raw.map((r) => {
    const id = rowIdOf(r);
    if (id === null) throw notFound(`issue ${r} does not exist`);
    return id;
  });
}

/** The path's project, or the organization's projects the person sees, narrowed by `?project=` ids. */
async function projectsOf({ ctx, access, params, query }: HandlerArgs): Promise<Project[]> {
  if (params.length > 1) return [await projectInOrg(ctx, access, params[1] ?? "")];
  const all = await listProjects(ctx, access);
  const wanted = query.getAll("project").filter((p) => p !== "-1");
  if (wanted.length === 0) return all;
  return wanted.map((p) => {
    const project = all.find((candidate) => String(candidate.id) === p);
    if (!project) throw notFound(`project ${p} does not exist in organization '${access.org.slug}'`);
    return project;
  });
}

async function selected(args: HandlerArgs, projects: Project[], ids: number[] | null): Promise<Issue[]> {
  const { query } = args;
  return bulkSelection(args.ctx, {
    organizationId: args.access.org.id,
    projectIds: projects.map((p) => p.id),
    ids,
    query: query.get("query"),
    status: query.get("status"),
    user: args.user,
  });
}

/**
 * Sentry's bulk mutate: the changes go through core's triage like the issue page's (activity,
 * outbox, alerts). The answer holds what changed, read back from the first issue as its detail
 * shows it, `merge` as `{parent, children}`; 204 when nothing matched. `hasSeen` is answered
 * but not kept: Telltale has no per-person seen marks (every issue says `hasSeen: false`).
 */
async function bulkMutate(args: HandlerArgs): Promise<unknown> {
  const { ctx, user, access } = args;
  // The path first: a project that does not exist is not found, whatever the body says.
  const projects = await projectsOf(args);
  const body = issueChangeBody(args.body, true);
  const ids = idsOf(args.query);
  if (ids === null && (body.merge || body.hasSeen !== null || body.changes.some((c) => !STATUS_ACTIONS.has(c.action))))
    throw invalidInput("You must specify a list of IDs for this operation");
  const issues = await selected(args, projects, ids);
  if (issues.length === 0) return new NoContent();
  const input = { projectIds: projects.map((p) => p.id), issueIds: issues.map((i) => i.id), user };
  for (const change of body.changes) await changeIssues({ ctx, input: { ...input, change } });
  const answer: Record<string, unknown> = {};
  if (body.changes.length > 0) {
    const first = await issueJson(ctx, user, access, String(input.issueIds[0]));
    const b = args.body as Record<string, unknown>;
    if (b.status !== undefined)
      Object.assign(answer, { status: first.status, substatus: first.substatus, statusDetails: first.statusDetails });
    if (b.assignedTo !== undefined) answer.assignedTo = first.assignedTo;
    if (typeof b.isBookmarked === "boolean") answer.isBookmarked = first.isBookmarked;
  }
  if (body.hasSeen !== null) answer.hasSeen = body.hasSeen;
  if (body.merge) {
    const into = await mergeIssues({ ctx, input });
    answer.merge = { parent: String(into.id), children: input.issueIds.filter((id) => id !== into.id).map(String) };
  }
  return answer;
}

/** Deletes issues for good and records each in the audit log (the issue's own activity goes with it). */
async function removeIssues(args: HandlerArgs, projects: Pick<Project, "id" | "slug">[], issues: Issue[]): Promise<void> {
  const slugs = new Map(projects.map((p) => [p.id, p.slug]));
  const deleted = await deleteIssues({ ctx: args.ctx, input: { projectIds: [...slugs.keys()], issueIds: issues.map((i) => i.id) } });
  for (const issue of deleted)
    await args.audit({
      event: "issue.delete",
      target: issueTarget({ id: issue.id, shortId: shortId({ slug: slugs.get(issue.project_id) ?? "" }, issue) }),
    });
}

/** Sentry's bulk remove: 204 whether or not anything matched. */
async function bulkDelete(args: HandlerArgs): Promise<NoContent> {
  const projects = await projectsOf(args);
  await removeIssues(args, projects, await selected(args, projects, idsOf(args.query)));
  return new NoContent();
}

export const ISSUE_BULK_ROUTES: ApiRoute[] = [
  route("PUT", "/projects/{}/{}/issues", "issue:triage", bulkMutate),
  route("PUT", "/organizations/{}/issues", "issue:triage", bulkMutate),
  route("DELETE", "/projects/{}/{}/issues", "issue:delete", bulkDelete),
  route("DELETE", "/organizations/{}/issues", "issue:delete", bulkDelete),
  // Sentry deletes an issue in the background and answers 202; here it is gone when this answers.
  route("DELETE", "/organizations/{}/issues/{}", "issue:delete", async (args) => {
    const { issue, project } = await findIssue(args.ctx, args.access, args.params[1] ?? "");
    await removeIssues(args, [project], [issue]);
    return new NoContent(202);
  }),
];
