import type { Ctx } from "../context";

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
  const recent = ctx.db
    .selectFrom("issues")
    .select("issues.id")
    .where("issues.project_id", "in", projectIds)
    .orderBy("issues.last_seen", "desc")
    .limit(limits.issues);
  const rows = await ctx.db
    .selectFrom("issue_tags")
    .select(["issue_tags.key", "issue_tags.value", (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n")])
    .where("issue_tags.issue_id", "in", recent)
    .groupBy(["issue_tags.key", "issue_tags.value"])
    .orderBy("n", "desc")
    .orderBy("issue_tags.key")
    .orderBy("issue_tags.value")
    .limit(limits.rows)
    .execute();
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

export interface TagValueCount {
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

/** One key's values in these projects' issues, most seen first, optionally by prefix (Sentry's `query`). */
export async function tagKeyValues(
  ctx: Ctx,
  projectIds: readonly number[],
  key: string,
  options: { prefix?: string; limit: number },
): Promise<TagValueCount[]> {
  if (projectIds.length === 0) return [];
  let q = ctx.db
    .selectFrom("issue_tags")
    .innerJoin("issues", "issues.id", "issue_tags.issue_id")
    .select([
      "issue_tags.value",
      (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n"),
      (eb) => eb.fn.min<number>("issue_tags.first_seen").as("first"),
      (eb) => eb.fn.max<number>("issue_tags.last_seen").as("last"),
    ])
    .where("issues.project_id", "in", projectIds)
    .where("issue_tags.key", "=", key);
  // A prefix compare rather than LIKE: no wildcard escaping, and the same on both dialects.
  if (options.prefix) q = q.where("issue_tags.value", ">=", options.prefix).where("issue_tags.value", "<", `${options.prefix}\u{10FFFF}`);
  const rows = await q.groupBy("issue_tags.value").orderBy("n", "desc").orderBy("issue_tags.value").limit(options.limit).execute();
  // PostgreSQL's sum() of bigint is numeric, which pg returns as a string.
  return rows.map((r) => ({ value: r.value, count: Number(r.n), firstSeen: Number(r.first), lastSeen: Number(r.last) }));
}
