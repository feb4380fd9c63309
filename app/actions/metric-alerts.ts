"use server";

import { revalidatePath } from "next/cache";
import { metricRuleTarget } from "@/src/core/audit/targets";
import { createMetricRule, deleteMetricRule, findMetricRule, updateMetricRule } from "@/src/core/metric-alerts/manage";
import { action } from "../lib/action";
import { field } from "../lib/forms";

const KEPT = ["name", "query", "environment", "critical", "warning", "resolve"] as const;

/** A number typed in a form, or null when left empty (zod says what is wrong with anything else). */
function numberOrNull(text: string): number | string | null {
  const t = text.trim();
  if (t === "") return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}

/**
 * The rule form as Sentry's alert-rule body (src/core/metric-alerts/schema.ts), so the page and
 * the API validate alike. One recipient (a team or a member) hears of both triggers.
 */
function ruleBody(form: FormData): Record<string, unknown> {
  const [targetType, targetIdentifier] = field(form, "target").split(":");
  const actions = targetType && targetIdentifier ? [{ type: "email", targetType, targetIdentifier }] : [];
  const warning = numberOrNull(field(form, "warning"));
  return {
    name: field(form, "name"),
    aggregate: field(form, "aggregate"),
    timeWindow: field(form, "timeWindow"),
    query: field(form, "query"),
    environment: field(form, "environment").trim() || null,
    projects: form.getAll("projects").filter((p): p is string => typeof p === "string"),
    thresholdType: field(form, "thresholdType") === "1" ? 1 : 0,
    resolveThreshold: numberOrNull(field(form, "resolve")),
    triggers: [
      { label: "critical", alertThreshold: numberOrNull(field(form, "critical")), actions },
      ...(warning === null ? [] : [{ label: "warning", alertThreshold: warning, actions }]),
    ],
  };
}

/** Creates a metric alert rule, or changes the one named by `ruleId`, from the organization's Metric alerts page. */
export const saveMetricRuleAction = action(
  "alert:write",
  async ({ ctx, user, access, form, audit }) => {
    const ruleId = field(form, "ruleId");
    const body = ruleBody(form);
    const before = ruleId ? await findMetricRule(ctx, access, ruleId) : null;
    const rule = ruleId
      ? await updateMetricRule({ ctx, input: { scope: access, ruleId, body } })
      : await createMetricRule({ ctx, input: { scope: access, body, userId: user.id } });
    if (before)
      await audit({ event: "alertrule.edit", target: metricRuleTarget(rule), before: { name: before.name }, after: { name: rule.name } });
    else await audit({ event: "alertrule.add", target: metricRuleTarget(rule), after: { name: rule.name } });
    revalidatePath(`/orgs/${access.org.slug}/metric-alerts`);
    return { notice: ruleId ? `Saved “${rule.name}”.` : `Created “${rule.name}”; it is evaluated every minute.` };
  },
  { keep: KEPT },
);

export const deleteMetricRuleAction = action("alert:write", async ({ ctx, access, form, audit }) => {
  const rule = await findMetricRule(ctx, access, field(form, "ruleId"));
  await deleteMetricRule({ ctx, input: { scope: access, ruleId: field(form, "ruleId") } });
  await audit({ event: "alertrule.remove", target: metricRuleTarget(rule), before: { name: rule.name } });
  revalidatePath(`/orgs/${access.org.slug}/metric-alerts`);
  return { notice: "Deleted the metric alert rule." };
});
