import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import { parseIssueQuery } from "../search/parse";
import { decodeIssueCursor, ISSUE_SORTS, type IssueSort } from "../search/sort";
import type { Issue } from "./triage";

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
export async function listIssues(ctx: Ctx, input: IssueListInput): Promise<IssueListResult> {
  const parsed = parseIssueQuery(input.query);
  if (!parsed.ok) return { ok: false, error: parsed.error };
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
