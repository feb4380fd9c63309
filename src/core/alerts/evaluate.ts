/**
 * Whether a rule fires for an issue change (Sentry's semantics for `actionMatch`, which applies
 * to conditions, and `filterMatch`): `all` needs every entry to hold, `any` one of them, `none`
 * none of them; an empty list of filters lets everything through.
 *
 * State conditions hold for the change of their kind; frequency conditions hold when the issue's
 * count over their interval is above `value`, and can only be asked of a change that carries the
 * events of a digest batch (`counts` is then given; docs/decisions/0019-frequency-conditions.md).
 */
import type { IssueChangeKind } from "../outbox/changes";
import { frequencyHolds, isFrequency, type Interval, type WindowCount } from "./frequency-conditions";
import { issueFilterPasses, type FilterFacts } from "./issue-filters";
import { CONDITIONS, LEVEL_FILTER, type AlertRule, type Filter, type Match } from "./rule-schema";

/**
 * The changes a rule is evaluated on: the state changes its conditions name, and `seen`, which
 * the digest writes for an issue that received events in a batch without changing state (only
 * in projects with a frequency rule).
 */
export const ALERTING_KINDS: ReadonlySet<IssueChangeKind> = new Set([...Object.values(CONDITIONS).map((c) => c.kind), "seen" as const]);

export interface IssueFacts extends FilterFacts {
  level: string;
  environment: string | null;
}

/** Counts over an interval; undefined for a change that carries no events (frequency conditions then fail). */
export type CountsOf = (interval: Interval) => WindowCount | undefined;
const NO_COUNTS: CountsOf = () => undefined;

const LEVEL_NUMBERS: Record<string, number> = { fatal: 50, error: 40, warning: 30, info: 20, debug: 10 };

function matches(match: Match, results: readonly boolean[]): boolean {
  if (match === "all") return results.every(Boolean);
  if (match === "any") return results.some(Boolean);
  return !results.some(Boolean);
}

function filterPasses(filter: Filter, issue: IssueFacts): boolean {
  if (filter.id !== LEVEL_FILTER) return issueFilterPasses(filter, issue);
  const level = LEVEL_NUMBERS[issue.level] ?? 40;
  const wanted = Number(filter.level);
  if (filter.match === "eq") return level === wanted;
  return filter.match === "gte" ? level >= wanted : level <= wanted;
}

/** The intervals a rule's frequency conditions count over (what the consumer must read first). */
export function intervalsOf(rule: AlertRule): Interval[] {
  return rule.conditions.flatMap((c) => (isFrequency(c) ? [c.interval] : []));
}

export function ruleFires(rule: AlertRule, kind: IssueChangeKind, issue: IssueFacts, counts: CountsOf = NO_COUNTS): boolean {
  if (rule.status !== "active" || !ALERTING_KINDS.has(kind)) return false;
  if (rule.environment && rule.environment !== issue.environment) return false;
  const held = rule.conditions.map((c) => {
    if (!isFrequency(c)) return CONDITIONS[c.id].kind === kind;
    const n = counts(c.interval);
    return n !== undefined && frequencyHolds(c, n);
  });
  if (!matches(rule.actionMatch, held)) return false;
  return (
    rule.filters.length === 0 ||
    matches(
      rule.filterMatch,
      rule.filters.map((f) => filterPasses(f, issue)),
    )
  );
}

/**
 * What a fired rule's notification says it fired on: the change's kind when one of the rule's
 * state conditions names it (or the rule has no frequency condition), else `seen` — a frequency
 * condition held. So a "more than 2 events in an hour" rule says "Frequency" whether the third
 * event reached an existing issue or was digested in the batch that created it.
 */
export function firedOn(rule: AlertRule, kind: IssueChangeKind): IssueChangeKind {
  if (rule.actionMatch === "none" || !rule.conditions.some(isFrequency)) return kind;
  return rule.conditions.some((c) => !isFrequency(c) && CONDITIONS[c.id].kind === kind) ? kind : "seen";
}
