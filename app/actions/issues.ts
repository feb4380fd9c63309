"use server";

import { revalidatePath } from "next/cache";
import { isTelltaleError } from "@/src/core/errors";
import { changeIssues, mergeIssues, type IssueChange } from "@/src/core/issues/triage";
import { organizationFor } from "@/src/core/orgs/access";
import { listProjects } from "@/src/core/projects/queries";
import { requireUser } from "../lib/auth";
import { field, type FormState } from "../lib/forms";
import { ctx } from "../lib/runtime";

/** The change a triage button or form asks for, read from its fields. */
function changeFrom(form: FormData): IssueChange | "merge" {
  const action = field(form, "action");
  switch (action) {
    case "resolve":
    case "resolveInNextRelease":
    case "unresolve":
      return { action };
    case "ignoreForever":
      return { action: "ignore", forever: true };
    case "ignoreMinutes":
      return { action: "ignore", minutes: Number(field(form, "minutes")) };
    case "ignoreCount":
      return { action: "ignore", count: Number(field(form, "count")) };
    case "ignoreUsers":
      return { action: "ignore", users: Number(field(form, "users")) };
    case "assign": {
      const to = field(form, "assignee");
      return { action: "assign", assigneeId: to === "" ? null : Number(to) };
    }
    case "bookmark":
      return { action: "bookmark", on: field(form, "on") === "1" };
    case "comment":
      return { action: "comment", text: field(form, "text") };
    case "merge":
      return "merge";
    default:
      return { action: "comment", text: "" };
  }
}

/**
 * Every triage mutation of the issue pages: a server action posted to the current page.
 * It checks the user's access to the organization and that the issues belong to it.
 */
export async function triageAction(_prev: FormState, form: FormData): Promise<FormState> {
  try {
    const user = await requireUser();
    const { org } = await organizationFor(ctx(), user, field(form, "org"));
    const projectIds = (await listProjects(ctx(), org)).map((p) => p.id);
    const issueIds = form.getAll("issue").map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const change = changeFrom(form);
    if (change === "merge") {
      const merged = await mergeIssues({ ctx: ctx(), input: { projectIds, issueIds, user } });
      revalidatePath(`/orgs/${org.slug}/issues`, "layout");
      return { notice: `Merged ${issueIds.length} issues into #${merged.id}.` };
    }
    await changeIssues({ ctx: ctx(), input: { projectIds, issueIds, user, change } });
    revalidatePath(`/orgs/${org.slug}/issues`, "layout");
    return { notice: issueIds.length > 1 ? `Updated ${issueIds.length} issues.` : "Updated." };
  } catch (error) {
    if (isTelltaleError(error)) return { error: error.message };
    throw error;
  }
}
