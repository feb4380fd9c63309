"use server";

import { revalidatePath } from "next/cache";
import { updateRule } from "@/src/core/alerts/manage-rules";
import { testRule } from "@/src/core/alerts/test-rule";
import { projectInOrg } from "@/src/core/projects/queries";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** Switches an issue alert rule on or off (the default rule included) from the project's Alerts page. */
export const setAlertRuleStatusAction = action("alert:write", async ({ ctx, access, form }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const on = field(form, "active") === "1";
  const rule = await updateRule({ ctx, input: { project, ruleId: field(form, "ruleId"), body: { status: on ? "active" : "disabled" } } });
  revalidatePath(`/orgs/${access.org.slug}/projects/${project.slug}/alerts`);
  return { notice: on ? `Switched on “${rule.name}”.` : `Switched off “${rule.name}”.` };
});

/** "Test this rule": queues the rule's actions once with the project's newest issue; the sender delivers them within a second or so. */
export const testAlertRuleAction = action("alert:test", async ({ ctx, access, form }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const notes = await testRule({ ctx, input: { project, ruleId: field(form, "ruleId") } });
  revalidatePath(`/orgs/${access.org.slug}/projects/${project.slug}/alerts`);
  return {
    notice: `Queued ${notes.length} test notification${notes.length === 1 ? "" : "s"}: reload in a moment to see how each went.`,
  };
});
