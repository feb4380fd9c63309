/**
 * An organization's metric alert rules: listed, created, changed and deleted in
 * Sentry's shape (./schema.ts). Projects are named by slug and must be ones the caller sees;
 * emails go to teams and members of the organization only. A PUT may send only the fields it
 * changes; the result is validated whole.
 */
import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import type { OrgScope } from "../orgs/access";
import { projectInOrg } from "../projects/queries";
import { validate } from "../validate";
import { MetricRuleInput, type MetricRule, type ValidMetricRule } from "./schema";

export const RECENT_EVALUATIONS = 30;

async function resolve(ctx: Ctx, scope: OrgScope, rule: ValidMetricRule): Promise<number[]> {
  const ids: number[] = [];
  for (const slug of rule.projects) {
    const project = await projectInOrg(ctx, scope, slug).catch(() => null);
    if (!project) throw invalidInput(`projects: project '${slug}' does not exist in organization '${scope.org.slug}'`);
    ids.push(project.id);
  }
  const orgId = scope.org.id;
  const teams = rule.triggers.some((t) => t.actions.some((a) => a.targetType === "team")) ? await ctx.directory.teams(orgId) : [];
  for (const [i, trigger] of rule.triggers.entries())
    for (const [j, action] of trigger.actions.entries()) {
      const at = `triggers.${i}.actions.${j}.targetIdentifier`;
      if (action.targetType === "team" && !teams.some((t) => t.team.id === action.targetIdentifier))
        throw invalidInput(`${at}: team ${action.targetIdentifier} is not a team of this organization`);
      if (action.targetType === "user" && !(await ctx.directory.memberRole(orgId, action.targetIdentifier)))
        throw invalidInput(`${at}: user ${action.targetIdentifier} is not a member of this organization`);
    }
  return ids;
}

export function listMetricRules(ctx: Ctx, scope: OrgScope): Promise<MetricRule[]> {
  return ctx.metricAlerts.rules(scope.org.id);
}

export async function findMetricRule(ctx: Ctx, scope: OrgScope, ruleId: string): Promise<MetricRule> {
  const id = /^\d{1,9}$/.test(ruleId) ? Number(ruleId) : null;
  const rule = id === null ? null : await ctx.metricAlerts.rule(scope.org.id, id);
  if (!rule) throw notFound(`alert rule '${ruleId}' does not exist in organization '${scope.org.slug}'`);
  return rule;
}

export async function createMetricRule({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; body: unknown; userId: number | null } }) {
  const rule = validate(MetricRuleInput, input.body);
  const projectIds = await resolve(ctx, input.scope, rule);
  return ctx.metricAlerts.insertRule(input.scope.org.id, rule, projectIds, { createdBy: input.userId, now: ctx.now() });
}

/** The rule as the API sends it back, for a PUT to start from. */
function asInput(rule: MetricRule): Record<string, unknown> {
  const { name, aggregate, timeWindow, query, environment, resolveThreshold, triggers, status } = rule;
  return {
    name,
    aggregate,
    timeWindow,
    query,
    environment,
    projects: rule.projects.map((p) => p.slug),
    thresholdType: rule.thresholdType === "below" ? 1 : 0,
    resolveThreshold,
    triggers,
    status,
  };
}

export async function updateMetricRule({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; ruleId: string; body: unknown } }) {
  const current = await findMetricRule(ctx, input.scope, input.ruleId);
  if (input.body === null || typeof input.body !== "object" || Array.isArray(input.body))
    throw invalidInput("send the rule as a JSON object");
  const rule = validate(MetricRuleInput, { ...asInput(current), ...input.body });
  const projectIds = await resolve(ctx, input.scope, rule);
  const updated = await ctx.metricAlerts.updateRule(input.scope.org.id, current.id, rule, projectIds, ctx.now());
  if (!updated) throw notFound(`alert rule '${input.ruleId}' does not exist in organization '${input.scope.org.slug}'`);
  return updated;
}

export async function deleteMetricRule({ ctx, input }: { ctx: Ctx; input: { scope: OrgScope; ruleId: string } }): Promise<void> {
  const rule = await findMetricRule(ctx, input.scope, input.ruleId);
  await ctx.metricAlerts.deleteRule(input.scope.org.id, rule.id);
}
