import { ruleTarget } from "../../core/audit/targets";
import { createRule, deleteRule, findRule, listRules, updateRule } from "../../core/alerts/manage-rules";
import { describeAction, describeCondition, describeFilter, EMAIL_ACTION, type AlertRule } from "../../core/alerts/rule-schema";
import { testRule } from "../../core/alerts/test-rule";
import { ruleCreators, type RuleCreator } from "../../core/alerts/creators";
import type { Ctx } from "../../core/context";
import { projectInOrg } from "../../core/projects/queries";
import { Created, JsonWithHeaders, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";

/**
 * What a rule's author gets back (POST and PUT, alert:write): the rule, and Telltale's
 * `webhookSecret`, the key its webhooks are signed with (decision 0018). Readers never see it.
 */
export async function serializeOwnRule(ctx: Ctx, rule: AlertRule, projectSlug: string) {
  const creator = await ruleCreators(ctx, [rule]);
  return { ...serializeRule(rule, projectSlug, creator(rule)), webhookSecret: rule.secret };
}

/**
 * A rule as Sentry's project rule endpoints answer it; each entry gains its `name` in words, as
 * Sentry's do, and `createdBy` is its maker (`{id, name, email}`) or null.
 */
export function serializeRule(rule: AlertRule, projectSlug: string, createdBy: RuleCreator | null) {
  return {
    id: String(rule.id),
    name: rule.name,
    actionMatch: rule.actionMatch,
    filterMatch: rule.filterMatch,
    frequency: rule.frequency,
    environment: rule.environment,
    conditions: rule.conditions.map((c) => ({ ...c, name: describeCondition(c) })),
    filters: rule.filters.map((f) => ({ ...f, name: describeFilter(f) })),
    actions: rule.actions.map((a) =>
      a.id === EMAIL_ACTION
        ? { ...a, targetIdentifier: a.targetIdentifier ?? "", name: describeAction(a) }
        : { ...a, name: describeAction(a) },
    ),
    projects: [projectSlug],
    status: rule.status,
    owner: null,
    createdBy,
    dateCreated: new Date(rule.createdAt).toISOString(),
    dateModified: new Date(rule.updatedAt).toISOString(),
  };
}

/**
 * Issue alert rules, Sentry's paths and shape (https://docs.sentry.io/api/alerts/list-a-projects-issue-alert-rules/):
 * `GET|POST /projects/{org}/{project}/rules/`, `GET|PUT|DELETE …/rules/{rule_id}/`.
 */
export const ALERT_ROUTES: ApiRoute[] = [
  route("GET", "/projects/{}/{}/rules", "alert:read", async ({ ctx, access, params: [, slug] }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const rules = await listRules(ctx, project);
    const creator = await ruleCreators(ctx, rules);
    return rules.map((r) => serializeRule(r, project.slug, creator(r)));
  }),
  route("POST", "/projects/{}/{}/rules", "alert:write", async ({ ctx, access, user, body, params: [, slug], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const rule = await createRule({ ctx, input: { project, body, userId: user.id } });
    await audit({ event: "rule.add", target: ruleTarget(rule), after: { project: project.slug, status: rule.status } });
    return new Created(await serializeOwnRule(ctx, rule, project.slug));
  }),
  route("GET", "/projects/{}/{}/rules/{}", "alert:read", async ({ ctx, access, params: [, slug, id] }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const rule = await findRule(ctx, project, id ?? "");
    return serializeRule(rule, project.slug, (await ruleCreators(ctx, [rule]))(rule));
  }),
  route("PUT", "/projects/{}/{}/rules/{}", "alert:write", async ({ ctx, access, body, params: [, slug, id], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const before = await findRule(ctx, project, id ?? "");
    const rule = await updateRule({ ctx, input: { project, ruleId: id ?? "", body } });
    const [b, a] = [before, rule].map((r) => ({ name: r.name, status: r.status }));
    await audit({ event: "rule.edit", target: ruleTarget(rule), before: b, after: a });
    return serializeOwnRule(ctx, rule, project.slug);
  }),
  route("DELETE", "/projects/{}/{}/rules/{}", "alert:write", async ({ ctx, access, params: [, slug, id], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const rule = await findRule(ctx, project, id ?? "");
    await deleteRule({ ctx, input: { project, ruleId: id ?? "" } });
    await audit({ event: "rule.remove", target: ruleTarget(rule), before: { name: rule.name, status: rule.status } });
    return new NoContent();
  }),
  // Telltale's: fires the rule's actions once with the newest issue; answers the notifications it queued.
  route("POST", "/projects/{}/{}/rules/{}/test", "alert:test", async ({ ctx, access, params: [, slug, id] }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const notes = await testRule({ ctx, input: { project, ruleId: id ?? "" } });
    return new JsonWithHeaders(
      { notifications: notes.map((n) => ({ id: n.id, channel: n.channel, issueId: String(n.issueId) })) },
      {},
      202,
    );
  }),
];
