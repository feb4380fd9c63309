"use server";

import { revalidatePath } from "next/cache";
import { updateRule } from "@/src/core/alerts/manage-rules";
import { ruleTarget } from "@/src/core/audit/targets";
import { projectInOrg } from "@/src/core/projects/queries";
import { action } from "../lib/action";
import { field } from "../lib/forms";

/** Switches an issue alert rule on or off (the default rule included) from the project's Alerts page. */
export const setAlertRuleStatusAction = action("alert:write", async ({ ctx, access, form, audit }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const on = field(form, "active") === "1";
  const rule = await updateRule({ ctx, input: { project, ruleId: field(form, "ruleId"), body: { status: on ? "active" : "disabled" } } });
  await audit({ event: "rule.edit", target: ruleTarget(rule), after: { status: on ? "active" : "disabled", project: project.slug } });
  revalidatePath(`/orgs/${access.org.slug}/projects/${project.slug}/alerts`);
  return { notice: on ? `Switched on “${rule.name}”.` : `Switched off “${rule.name}”.` };
});
