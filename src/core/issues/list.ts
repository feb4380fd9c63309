import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import type { IssueQuery, QueryError } from "../search/ast";
import { BUILTIN_TAG_KEYS } from "../search/keys";
import { parseIssueQuery } from "../search/parse";
import { decodeIssueCursor, ISSUE_SORTS, type IssueSort } from "../search/sort";
import type { Issue } from "./issue";

export const SORTS = ISSUE_SORTS;
export type Sort = IssueSort;
export const DEFAULT_QUERY = "is:unresolved";

export interface IssueListInput {
  projectIds: number[];
  query: string;
  sort: Sort;
  cursor?: string | undefined;
  limit: number;
  /** Who is asking: `me` in the query. */
  user: { id: number } | null;
  /** Only issues seen since this time (ms), the time-range switcher. */
  since?: number | undefined;
}

export type IssueListResult =
  | { ok: true; issues: Issue[]; previousCursor: string | null; nextCursor: string | null }
  | { ok: false; error: { message: string; position: number } };

/**
 * The issue stream: a search query, a sort, keyset pagination by (sort value, id) so pages
 * never skip or repeat an issue while new events arrive. Merged issues are never listed.
 */
/**
 * A key that is neither a property nor a tag any issue of these projects carries (`bogus:x`),
 * as a search error: it would match nothing, which reads as "no such issues" rather than "no
 * such key".
 */
async function unknownKey(ctx: Ctx, input: IssueListInput, query: IssueQuery): Promise<QueryError | null> {
  const custom = [...new Set(query.terms.flatMap((t) => (t.type === "tag" && !BUILTIN_TAG_KEYS.has(t.key) ? [t.key] : [])))];
  if (custom.length === 0) return null;
  const seen = new Set(await ctx.issueSearch.tagKeysSeen(input.projectIds, custom));
  const key = custom.find((k) => !seen.has(k));
  if (key === undefined) return null;
  const at = input.query.indexOf(`${key}:`);
  return {
    message: `Unknown search key "${key}" — no issue here has a tag by that name; use a property such as is:, level:, error.type: or release:, or a tag your events send`,
    position: Math.max(0, at === -1 ? input.query.indexOf(key) : at),
  };
}

export async function listIssues(ctx: Ctx, input: IssueListInput): Promise<IssueListResult> {
  const parsed = parseIssueQuery(input.query);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const unknown = await unknownKey(ctx, input, parsed.query);
  if (unknown) return { ok: false, error: unknown };
  let cursor = null;
  if (input.cursor) {
    const decoded = decodeIssueCursor(input.cursor, input.sort);
    if (!decoded.ok) throw invalidInput(decoded.message);
    cursor = decoded.cursor;
  }
  const page = await ctx.issueSearch.page({
    projectIds: input.projectIds,
    query: parsed.query,
    userId: input.user?.id ?? null,
    now: ctx.now(),
    since: input.since,
    sort: input.sort,
    cursor,
    limit: input.limit,
  });
  return { ok: true, issues: page.rows, previousCursor: page.previousCursor, nextCursor: page.nextCursor };
}
