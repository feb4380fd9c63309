/**
 * The query of a metric alert: the issue search's syntax (../search), reduced to what a count of
 * error events can be filtered by, since the counts are kept per project, minute, environment and
 * level (decision 0020): `level:error`, `level:[error, fatal]`, `environment:production` (and
 * their `!` negations), and `event.type:error`, which Sentry's UI adds and which every counted
 * event satisfies. Anything else is refused with a message naming what works.
 */
import { parseIssueQuery, type Level } from "../search";
import { globLiteral, hasWildcard } from "../search/glob";

export interface MetricFilter {
  /** Levels counted; null counts every level. */
  levels: Level[] | null;
  excludedLevels: Level[];
  environments: string[] | null;
  excludedEnvironments: string[];
}

export type MetricQueryParse = { ok: true; filter: MetricFilter } | { ok: false; error: string };

const SUPPORTED = "a metric alert's query takes level:, environment: and event.type:error";

export function parseMetricQuery(text: string): MetricQueryParse {
  const parsed = parseIssueQuery(text);
  if (!parsed.ok) return { ok: false, error: parsed.error.message };
  const filter: MetricFilter = { levels: null, excludedLevels: [], environments: null, excludedEnvironments: [] };
  for (const term of parsed.query.terms) {
    if (term.type === "level") {
      if (term.negated) filter.excludedLevels.push(...term.values);
      else filter.levels = filter.levels ? filter.levels.filter((l) => term.values.includes(l)) : [...term.values];
      continue;
    }
    if (term.type === "tag" && term.key === "event.type") {
      if (!term.negated && term.values.map(globLiteral).every((v) => v === "error" || v === "default")) continue;
      return { ok: false, error: "event.type: only error events are counted (event.type:error)" };
    }
    if (term.type === "tag" && term.key === "environment") {
      if (term.values.some(hasWildcard)) return { ok: false, error: "environment: name environments without wildcards" };
      const names = term.values.map(globLiteral);
      if (term.negated) filter.excludedEnvironments.push(...names);
      else filter.environments = filter.environments ? filter.environments.filter((e) => names.includes(e)) : names;
      continue;
    }
    return {
      ok: false,
      error: `${SUPPORTED}, not ${term.type === "tag" ? `${term.key}:` : term.type === "text" ? "free text" : `${term.type}:`}`,
    };
  }
  return { ok: true, filter };
}
