import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput } from "../errors";
import { applyIssueQuery } from "../search/compile";
import { parseIssueQuery } from "../search/parse";
import type { Issue } from "./triage";

export const SORTS = { date: "last_seen", new: "first_seen", freq: "times_seen", user: "user_count" } as const;
export type Sort = keyof typeof SORTS;
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
  | { ok: true; issues: Issue[]; nextCursor: string | null }
  | { ok: false; error: { message: string; position: number } };

interface Cursor {
  v: number;
  id: number;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.v, c.id])).toString("base64url");
}

function decodeCursor(text: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === "number" && Number.isFinite(n))) return { v: value[0] as number, id: value[1] as number };
  } catch {
    // fall through
  }
  throw invalidInput("the cursor is not one this server gave out; start from the first page");
}

/**
 * The issue stream: a search query, a sort, keyset pagination by (sort value, id) so pages
 * never skip or repeat an issue while new events arrive. Merged issues are never listed.
 */
export async function listIssues(ctx: Ctx, input: IssueListInput): Promise<IssueListResult> {
  const parsed = parseIssueQuery(input.query);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const column = SORTS[input.sort];
  let q = ctx.db
    .selectFrom("issues")
    .selectAll("issues")
    .where("issues.project_id", "in", input.projectIds.length ? input.projectIds : [-1])
    .where("issues.merged_into_id", "is", null);
  if (input.since !== undefined) q = q.where("issues.last_seen", ">=", input.since);
  q = applyIssueQuery(q, parsed.query, { dialect: ctx.dialect, userId: input.user?.id ?? null, now: ctx.now() });
  if (input.cursor) {
    const c = decodeCursor(input.cursor);
    q = q.where((eb) => eb.or([eb(`issues.${column}`, "<", c.v), eb.and([eb(`issues.${column}`, "=", c.v), eb("issues.id", "<", c.id)])]));
  }
  const rows = await q.orderBy(`issues.${column}`, "desc").orderBy("issues.id", "desc").limit(input.limit + 1).execute();
  const issues = rows.slice(0, input.limit);
  const last = issues.at(-1);
  return { ok: true, issues, nextCursor: rows.length > input.limit && last ? encodeCursor({ v: last[column], id: last.id }) : null };
}
