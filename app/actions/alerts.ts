"use server";

import { revalidatePath } from "next/cache";
import { addDefaultRule, createRule, deleteRule, findRule, updateRule } from "@/src/core/alerts/manage-rules";
import { invalidInput, isTelltaleError } from "@/src/core/errors";
import { testRule } from "@/src/core/alerts/test-rule";
import { ruleTarget } from "@/src/core/audit/targets";
import { projectInOrg } from "@/src/core/projects/queries";
import { action } from "../lib/action";
import { formFieldErrors, ruleBodyOf } from "../lib/alert-rule-form";
import { field } from "../lib/forms";

const alertsPath = (org: string, project: string) => `/orgs/${org}/projects/${project}/alerts`;

/** Switches an issue alert rule on or off (the default rule included) from the project's Alerts page. */
export const setAlertRuleStatusAction = action("alert:write", async ({ ctx, access, form, audit }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const on = field(form, "active") === "1";
  const rule = await updateRule({ ctx, input: { project, ruleId: field(form, "ruleId"), body: { status: on ? "active" : "disabled" } } });
  await audit({ event: "rule.edit", target: ruleTarget(rule), after: { status: on ? "active" : "disabled", project: project.slug } });
  revalidatePath(alertsPath(access.org.slug, project.slug));
  return { notice: on ? `Switched on “${rule.name}”.` : `Switched off “${rule.name}”.` };
});

/**
 * Creates a rule, or changes the one `ruleId` names, from the rule editor (app/lib/alert-rule-form.ts):
 * the form becomes Sentry's rule body and goes through the API's validation; its messages come
 * back beside the fields they are about.
 */
export const saveAlertRuleAction = action("alert:write", async ({ ctx, access, user, form, audit }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const ruleId = field(form, "ruleId");
  const { body, fieldOf } = ruleBodyOf((name) => field(form, name));
  const posted = new Set([...form.keys()]);
  if ((body.conditions as unknown[]).length === 0)
    throw invalidInput("The rule was not saved: choose at least one condition.", { conditions: "choose at least one condition" });
  try {
    const before = ruleId ? await findRule(ctx, project, ruleId) : null;
    const rule = ruleId
      ? await updateRule({ ctx, input: { project, ruleId, body } })
      : await createRule({ ctx, input: { project, body, userId: user.id } });
    const after = { name: rule.name, status: rule.status, project: project.slug };
    if (before) await audit({ event: "rule.edit", target: ruleTarget(rule), before: { name: before.name, status: before.status }, after });
    else await audit({ event: "rule.add", target: ruleTarget(rule), after });
    revalidatePath(alertsPath(access.org.slug, project.slug));
    return { notice: ruleId ? `Saved “${rule.name}”.` : `Created “${rule.name}”.` };
  } catch (error) {
    if (!isTelltaleError(error) || error.code !== "invalid_input") throw error;
    const fields = error.details.fields ?? {};
    const first = Object.values(fields)[0] ?? error.message.replace(/^[\w.]+: /, "");
    throw invalidInput(`The rule was not saved: ${first}.`, formFieldErrors(fields, fieldOf, posted));
  }
});

export const deleteAlertRuleAction = action("alert:write", async ({ ctx, access, form, audit }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const rule = await findRule(ctx, project, field(form, "ruleId"));
  await deleteRule({ ctx, input: { project, ruleId: field(form, "ruleId") } });
  await audit({ event: "rule.remove", target: ruleTarget(rule), before: { name: rule.name, project: project.slug } });
  revalidatePath(alertsPath(access.org.slug, project.slug));
  return { notice: "Rule deleted." };
});

/** Offers a project with no rules the default one (email its members about new issues). */
export const addDefaultAlertRuleAction = action("alert:write", async ({ ctx, access, user, form, audit }) => {
  const project = await projectInOrg(ctx, access, field(form, "project"));
  const rule = await addDefaultRule({ ctx, input: { project, internal: access.org.is_internal === 1, userId: user.id } });
  await audit({ event: "rule.add", target: ruleTarget(rule), after: { name: rule.name, status: rule.status, project: project.slug } });
  revalidatePath(alertsPath(access.org.slug, project.slug));
  return { notice: `Added “${rule.name}”.` };
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
