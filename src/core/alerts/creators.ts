import type { Ctx } from "../context";

/** Who made an alert rule, as Sentry's rule serializers name them: the user's id, display name and email. */
export interface RuleCreator {
  id: number;
  name: string;
  email: string;
}

/**
 * The makers of these rules (issue or metric alert rules), looked up once per person: a rule
 * made before its maker was recorded, or whose maker's account is gone, has none.
 */
export async function ruleCreators(
  ctx: Ctx,
  rules: readonly { createdBy: number | null }[],
): Promise<(rule: { createdBy: number | null }) => RuleCreator | null> {
  const ids = [...new Set(rules.map((r) => r.createdBy).filter((id): id is number => id !== null))];
  const found = new Map<number, RuleCreator>();
  for (const id of ids) {
    const user = await ctx.accounts.userById(id);
    if (user) found.set(id, { id: user.id, name: user.name || user.email, email: user.email });
  }
  return (rule) => (rule.createdBy === null ? null : (found.get(rule.createdBy) ?? null));
}
