/**
 * A project's issue alert rules: listed, created, changed and deleted in Sentry's rule
 * shape (./rule-schema.ts). A rule may only email teams and members of the project's
 * organization; a PUT may send only the fields it changes (`{"status": "disabled"}` switches a
 * rule off), the result is validated whole.
 */
import type { Ctx } from "../context";
import { conflict, invalidInput, notFound } from "../errors";
import { validate } from "../validate";
import { DEFAULT_RULE, EMAIL_ACTION, RuleInput, type AlertRule, type ValidRule } from "./rule-schema";

/** The project as `projectInOrg` gives it; only these fields are read. */
interface ProjectRef {
  id: number;
  organization_id: number;
  slug: string;
}

async function checkTargets(ctx: Ctx, project: ProjectRef, rule: ValidRule): Promise<void> {
  for (const [i, action] of rule.actions.entries()) {
    if (action.id !== EMAIL_ACTION) continue;
    if (action.targetType === "Team") {
      const teams = await ctx.directory.teams(project.organization_id);
      if (!teams.some((t) => t.team.id === action.targetIdentifier))
        throw invalidInput(`actions.${i}.targetIdentifier: team ${action.targetIdentifier} is not a team of this organization`);
    }
    if (action.targetType === "Member" && !(await ctx.directory.memberRole(project.organization_id, action.targetIdentifier)))
      throw invalidInput(`actions.${i}.targetIdentifier: user ${action.targetIdentifier} is not a member of this organization`);
  }
}

export function listRules(ctx: Ctx, project: ProjectRef): Promise<AlertRule[]> {
  return ctx.alerts.rules(project.id);
}

export async function findRule(ctx: Ctx, project: ProjectRef, ruleId: string): Promise<AlertRule> {
  const id = /^\d{1,9}$/.test(ruleId) ? Number(ruleId) : null;
  const rule = id === null ? null : await ctx.alerts.rule(project.id, id);
  if (!rule) throw notFound(`rule '${ruleId}' does not exist in project '${project.slug}'`);
  return rule;
}

export async function createRule({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; body: unknown; userId: number | null } }) {
  const rule = validate(RuleInput, input.body);
  await checkTargets(ctx, input.project, rule);
  return ctx.alerts.insertRule(input.project.id, rule, { isDefault: false, createdBy: input.userId, now: ctx.now() });
}

/** The rule as Sentry's API would send it back, for a PUT to start from. */
function asInput(rule: AlertRule): Record<string, unknown> {
  const { name, actionMatch, filterMatch, frequency, environment, conditions, filters, actions, status } = rule;
  return { name, actionMatch, filterMatch, frequency, environment, conditions, filters, actions, status };
}

export async function updateRule({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; ruleId: string; body: unknown } }) {
  const current = await findRule(ctx, input.project, input.ruleId);
  if (input.body === null || typeof input.body !== "object" || Array.isArray(input.body))
    throw invalidInput("send the rule as a JSON object");
  const rule = validate(RuleInput, { ...asInput(current), ...input.body });
  await checkTargets(ctx, input.project, rule);
  const updated = await ctx.alerts.updateRule(input.project.id, current.id, rule, ctx.now());
  if (!updated) throw notFound(`rule '${input.ruleId}' does not exist in project '${input.project.slug}'`);
  return updated;
}

export async function deleteRule({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; ruleId: string } }): Promise<void> {
  const rule = await findRule(ctx, input.project, input.ruleId);
  await ctx.alerts.deleteRule(input.project.id, rule.id);
}

/**
 * Gives an existing project the default rule new projects get (existing projects are
 * offered it, not given it): only while it has no rule, and never in the internal organization.
 */
export async function addDefaultRule({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; internal: boolean; userId: number } }) {
  if (input.internal) throw invalidInput("the internal project reports Telltale's own errors: it gets no default rule");
  if ((await ctx.alerts.rules(input.project.id)).length > 0) throw conflict(`project '${input.project.slug}' has alert rules already`);
  return ctx.alerts.insertRule(input.project.id, DEFAULT_RULE, { isDefault: true, createdBy: input.userId, now: ctx.now() });
}
