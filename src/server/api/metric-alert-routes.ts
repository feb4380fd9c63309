import { metricRuleTarget } from "../../core/audit/targets";
import { createMetricRule, deleteMetricRule, findMetricRule, listMetricRules, updateMetricRule } from "../../core/metric-alerts/manage";
import type { MetricRule } from "../../core/metric-alerts/schema";
import { ruleCreators, type RuleCreator } from "../../core/alerts/creators";
import type { Ctx } from "../../core/context";
import { Created, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A metric alert rule as Sentry's organization alert-rule endpoints answer it
 * (https://docs.sentry.io/api/alerts/retrieve-a-metric-alert-rule-for-an-organization/): each
 * trigger carries the rule's threshold type and resolve threshold, as Sentry's do; `createdBy` is
 * its maker (`{id, name, email}`) or null.
 */
export function serializeMetricRule(rule: MetricRule, createdBy: RuleCreator | null) {
  const thresholdType = rule.thresholdType === "below" ? 1 : 0;
  return {
    id: String(rule.id),
    name: rule.name,
    organizationId: String(rule.organizationId),
    status: rule.status === "disabled" ? 1 : 0,
    dataset: "events",
    queryType: 0,
    query: rule.query,
    aggregate: rule.aggregate,
    timeWindow: rule.timeWindow,
    resolution: 1,
    thresholdPeriod: 1,
    thresholdType,
    resolveThreshold: rule.resolveThreshold,
    environment: rule.environment,
    projects: rule.projects.map((p) => p.slug),
    triggers: rule.triggers.map((t) => ({
      id: `${rule.id}-${t.label}`,
      alertRuleId: String(rule.id),
      label: t.label,
      thresholdType,
      alertThreshold: t.alertThreshold,
      resolveThreshold: rule.resolveThreshold,
      dateCreated: iso(rule.createdAt),
      actions: t.actions.map((a, i) => ({
        id: `${rule.id}-${t.label}-${i}`,
        alertRuleTriggerId: `${rule.id}-${t.label}`,
        type: a.type,
        targetType: a.targetType,
        targetIdentifier: String(a.targetIdentifier),
        inputChannelId: null,
        integrationId: null,
        sentryAppId: null,
        dateCreated: iso(rule.createdAt),
        desc: `Send an email to ${a.targetType === "team" ? "team" : "member"} ${a.targetIdentifier}`,
      })),
    })),
    // Telltale's own: the state after the latest evaluation, and since when.
    state: rule.state,
    stateSince: iso(rule.stateSince),
    owner: null,
    createdBy,
    dateModified: iso(rule.updatedAt),
    dateCreated: iso(rule.createdAt),
  };
}

/** One rule serialized with its maker looked up. */
async function withCreator(ctx: Ctx, rule: MetricRule) {
  return serializeMetricRule(rule, (await ruleCreators(ctx, [rule]))(rule));
}

/** Metric alert rules, Sentry's paths: `GET|POST /organizations/{org}/alert-rules/`, `GET|PUT|DELETE …/alert-rules/{id}/`. */
export const METRIC_ALERT_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/alert-rules", "alert:read", async ({ ctx, access }) => {
    const rules = await listMetricRules(ctx, access);
    const creator = await ruleCreators(ctx, rules);
    return rules.map((r) => serializeMetricRule(r, creator(r)));
  }),
  route("POST", "/organizations/{}/alert-rules", "alert:write", async ({ ctx, access, user, body, audit }) => {
    const rule = await createMetricRule({ ctx, input: { scope: access, body, userId: user.id } });
    await audit({ event: "alertrule.add", target: metricRuleTarget(rule), after: { name: rule.name } });
    return new Created(await withCreator(ctx, rule));
  }),
  route("GET", "/organizations/{}/alert-rules/{}", "alert:read", async ({ ctx, access, params: [, id] }) =>
    withCreator(ctx, await findMetricRule(ctx, access, id ?? "")),
  ),
  route("PUT", "/organizations/{}/alert-rules/{}", "alert:write", async ({ ctx, access, body, params: [, id], audit }) => {
    const before = await findMetricRule(ctx, access, id ?? "");
    const rule = await updateMetricRule({ ctx, input: { scope: access, ruleId: id ?? "", body } });
    await audit({ event: "alertrule.edit", target: metricRuleTarget(rule), before: { name: before.name }, after: { name: rule.name } });
    return withCreator(ctx, rule);
  }),
  route("DELETE", "/organizations/{}/alert-rules/{}", "alert:write", async ({ ctx, access, params: [, id], audit }) => {
    const rule = await findMetricRule(ctx, access, id ?? "");
    await deleteMetricRule({ ctx, input: { scope: access, ruleId: id ?? "" } });
    await audit({ event: "alertrule.remove", target: metricRuleTarget(rule), before: { name: rule.name } });
    return new NoContent();
  }),
];
