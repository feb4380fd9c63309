import type { Ctx } from "../context";

/** Bounds on what the search box is sent: enough to be useful, small enough for every page view. */
export const TAG_SUGGESTION_LIMITS = { keys: 30, valuesPerKey: 10, rows: 2000 } as const;

/**
 * The most seen values of each tag key in these projects' issues, for the search box's
 * value suggestions. Computed with the page rather than fetched per keystroke: one grouped
 * read, bounded by TAG_SUGGESTION_LIMITS, and no API route to keep in step with the page.
 */
export async function topTagValues(ctx: Ctx, projectIds: readonly number[]): Promise<Record<string, string[]>> {
  if (projectIds.length === 0) return {};
  const rows = await ctx.db
    .selectFrom("issue_tags")
    .innerJoin("issues", "issues.id", "issue_tags.issue_id")
    .select(["issue_tags.key", "issue_tags.value", (eb) => eb.fn.sum<number>("issue_tags.times_seen").as("n")])
    .where("issues.project_id", "in", projectIds)
    .groupBy(["issue_tags.key", "issue_tags.value"])
    .orderBy("n", "desc")
    .orderBy("issue_tags.key")
    .orderBy("issue_tags.value")
    .limit(TAG_SUGGESTION_LIMITS.rows)
    .execute();
  const out: Record<string, string[]> = {};
  let keys = 0;
  for (const r of rows) {
    let values = Object.hasOwn(out, r.key) ? out[r.key] : undefined;
    if (!values) {
      if (keys === TAG_SUGGESTION_LIMITS.keys) continue;
      keys++;
      values = out[r.key] = [];
    }
    if (values.length < TAG_SUGGESTION_LIMITS.valuesPerKey) values.push(r.value);
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
