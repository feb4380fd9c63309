/**
 * Whether a rule fires for an issue change (Sentry's semantics for `actionMatch`, which applies
 * to conditions, and `filterMatch`): `all` needs every entry to hold, `any` one of them, `none`
 * none of them; an empty list of filters lets everything through.
 */
import type { IssueChangeKind } from "../outbox/changes";
import { CONDITIONS, type AlertRule, type Filter, type Match } from "./rule-schema";

/** The changes a condition can be about: the others never fire a rule. */
export const ALERTING_KINDS: ReadonlySet<IssueChangeKind> = new Set(Object.values(CONDITIONS).map((c) => c.kind));

export interface IssueFacts {
  level: string;
  environment: string | null;
}

const LEVEL_NUMBERS: Record<string, number> = { fatal: 50, error: 40, warning: 30, info: 20, debug: 10 };

function matches(match: Match, results: readonly boolean[]): boolean {
  if (match === "all") return results.every(Boolean);
  if (match === "any") return results.some(Boolean);
  return !results.some(Boolean);
}

function filterPasses(filter: Filter, issue: IssueFacts): boolean {
  const level = LEVEL_NUMBERS[issue.level] ?? 40;
  const wanted = Number(filter.level);
  if (filter.match === "eq") return level === wanted;
  return filter.match === "gte" ? level >= wanted : level <= wanted;
}

export function ruleFires(rule: AlertRule, kind: IssueChangeKind, issue: IssueFacts): boolean {
  if (rule.status !== "active" || !ALERTING_KINDS.has(kind)) return false;
  if (rule.environment && rule.environment !== issue.environment) return false;
  if (
    !matches(
      rule.actionMatch,
      rule.conditions.map((c) => CONDITIONS[c.id].kind === kind),
    )
  )
    return false;
  return (
    rule.filters.length === 0 ||
    matches(
      rule.filterMatch,
      rule.filters.map((f) => filterPasses(f, issue)),
    )
  );
}
