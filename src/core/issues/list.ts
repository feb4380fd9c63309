import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import { applyIssueQuery } from "../search/compile";
import { parseIssueQuery } from "../search/parse";
import { decodeIssueCursor, fetchIssuePage, ISSUE_SORTS, type IssueSort } from "../search/sort";
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
  user: User | null;
  /** Only issues seen since this time (ms), the time-range switcher. */
  since?: number | undefined;
}

export type IssueListResult =
  { ok: true; issues: Issue[]; nextCursor: string | null } | { ok: false; error: { message: string; position: number } };

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
  let q = ctx.db
    .selectFrom("issues")
    .selectAll("issues")
    .where("issues.project_id", "in", input.projectIds.length ? input.projectIds : [-1])
    .where("issues.merged_into_id", "is", null);
  if (input.since !== undefined) q = q.where("issues.last_seen", ">=", input.since);
  q = applyIssueQuery(q, parsed.query, { dialect: ctx.dialect, userId: input.user?.id ?? null, now: ctx.now() });
  const page = await fetchIssuePage(q, { sort: input.sort, cursor, limit: input.limit });
  return { ok: true, issues: page.rows, nextCursor: page.nextCursor };
}
