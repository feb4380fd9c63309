import type { Ctx } from "../context";
import type { TagValueCount } from "../ports/issue-reader";

export type { TagValueCount } from "../ports/issue-reader";

/**
 * Bounds on what the search box is sent: enough to be useful, small enough for every page view.
 * `issues`: only the most recently seen issues are counted. Summing the tags of all of a
 * project's issues took 2.2 s per issue stream view at 1 M events and 11,025 issues
 * (docs/benchmarks.md); busy issues carry hundreds of tag rows each (user ids,
 * URLs), so the 100 most recent took 151 ms there (99,000 rows) and the 50 most recent 83 ms.
 */
export const TAG_SUGGESTION_LIMITS = { keys: 30, valuesPerKey: 10, rows: 2000, issues: 50 } as const;

type SuggestionLimits = { readonly [K in keyof typeof TAG_SUGGESTION_LIMITS]: number };

/**
 * The most seen values of each tag key in these projects' most recently seen issues, for the
 * search box's value suggestions. Computed with the page rather than fetched per keystroke: one
 * grouped read, bounded by TAG_SUGGESTION_LIMITS, and no API route to keep in step with the page.
 */
export async function topTagValues(
  ctx: Ctx,
  projectIds: readonly number[],
  limits: SuggestionLimits = TAG_SUGGESTION_LIMITS,
): Promise<Record<string, string[]>> {
  if (projectIds.length === 0) return {};
  const rows = await ctx.issueReader.recentTagValues(projectIds, limits);
  const out: Record<string, string[]> = {};
  let keys = 0;
  for (const r of rows) {
    let values = Object.hasOwn(out, r.key) ? out[r.key] : undefined;
    if (!values) {
      if (keys === limits.keys) continue;
      keys++;
      values = out[r.key] = [];
    }
    if (values.length < limits.valuesPerKey) values.push(r.value);
  }
  return out;
}

/** One key's values in these projects' issues, most seen first, optionally by prefix (Sentry's `query`). */
export function tagKeyValues(
  ctx: Ctx,
  projectIds: readonly number[],
  key: string,
  options: { prefix?: string; limit: number },
): Promise<TagValueCount[]> {
  return ctx.issueReader.tagValues(projectIds, key, options);
}
