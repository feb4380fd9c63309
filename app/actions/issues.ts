"use server";

import { revalidatePath } from "next/cache";
import { changeIssues, mergeIssues, unmergeIssue, type IssueChange } from "@/src/core/issues/triage";
import { shortId } from "@/src/core/issues/queries";
import { listProjects } from "@/src/core/projects/queries";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** The change a triage button or form asks for, read from its fields. */
function changeFrom(form: FormData): IssueChange | "merge" | "unmerge" {
  const kind = field(form, "action");
  switch (kind) {
    case "resolve":
    case "resolveInNextRelease":
    case "unresolve":
      return { action: kind };
    case "ignoreForever":
      return { action: "ignore", forever: true };
    case "ignoreMinutes":
      return { action: "ignore", minutes: Number(field(form, "minutes")) };
    case "ignoreCount":
      return { action: "ignore", count: Number(field(form, "count")) };
    case "ignoreUsers":
      return { action: "ignore", users: Number(field(form, "users")) };
    case "assign": {
      // A member's id, or `team:<id>` as Sentry's assignedTo names a team.
      const to = field(form, "assignee");
      if (to.startsWith("team:")) return { action: "assign", assigneeId: null, teamId: Number(to.slice(5)) };
      return { action: "assign", assigneeId: to === "" ? null : Number(to) };
    }
    case "bookmark":
      return { action: "bookmark", on: field(form, "on") === "1" };
    case "comment":
      return { action: "comment", text: field(form, "text") };
    case "merge":
      return "merge";
    case "unmerge":
      return "unmerge";
    default:
      return { action: "comment", text: "" };
  }
}

/**
 * Every triage mutation of the issue pages: a server action posted to the current page.
 * The wrapper checks the user's access to the organization; the core checks that the
 * issues belong to its projects.
 */
export const triageAction = action("issue:triage", async ({ ctx, user, access, form }) => {
  const { org } = access;
  const projects = await listProjects(ctx, access);
  const projectIds = projects.map((p) => p.id);
  const issueIds = form
    .getAll("issue")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const change = changeFrom(form);
  if (change === "merge") {
    const merged = await mergeIssues({ ctx, input: { projectIds, issueIds, user } });
    revalidatePath(`/orgs/${org.slug}/issues`, "layout");
    // The short id (SHOP-1), as the issue pages name issues; the row id means nothing to a user.
    const project = projects.find((p) => p.id === merged.project_id);
    return { notice: `Merged ${issueIds.length} issues into ${project ? shortId(project, merged) : `#${merged.id}`}.` };
  }
  if (change === "unmerge") {
    const [issueId] = issueIds;
    if (issueIds.length !== 1 || issueId === undefined) return { error: "Unmerge one issue at a time." };
    const { issue, target, events } = await unmergeIssue({ ctx, input: { projectIds, issueId, user } });
    revalidatePath(`/orgs/${org.slug}/issues`, "layout");
    const project = projects.find((p) => p.id === issue.project_id);
    const name = (i: typeof issue) => (project ? shortId(project, i) : `#${i.id}`);
    return { notice: `Unmerged ${name(issue)} from ${name(target)}: ${events} ${events === 1 ? "event" : "events"} moved back.` };
  }
  await changeIssues({ ctx, input: { projectIds, issueIds, user, change } });
  revalidatePath(`/orgs/${org.slug}/issues`, "layout");
  return { notice: issueIds.length > 1 ? `Updated ${issueIds.length} issues.` : "Updated." };
});
