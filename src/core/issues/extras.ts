import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { hourlyCounts } from "./queries";
import type { Issue } from "./triage";

export interface IssueExtraInfo {
  bookmarked: boolean;
  assignee: Pick<User, "id" | "email" | "name"> | null;
  /** The team the issue is assigned to instead of a person. */
  assigneeTeam: { id: number; slug: string; name: string } | null;
  comments: number;
  hourly?: number[];
  now: number;
}

/** What a list or page shows beside each issue: bookmark, assignee, comment count, 24 h counts. */
export async function issueExtras(
  ctx: Ctx,
  issues: readonly Issue[],
  user: User,
  options: { hourly: boolean },
): Promise<Map<number, IssueExtraInfo>> {
  const ids = issues.map((i) => i.id);
  const now = ctx.now();
  const out = new Map<number, IssueExtraInfo>();
  if (ids.length === 0) return out;
  const teamIds = [...new Set(issues.map((i) => i.assignee_team_id).filter((t): t is number => t !== null))];
  const [bookmarks, comments, assignees, hourly, teams] = await Promise.all([
    ctx.db.selectFrom("issue_bookmarks").select("issue_id").where("issue_id", "in", ids).where("user_id", "=", user.id).execute(),
    ctx.db
      .selectFrom("issue_activity")
      .select(["issue_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("issue_id", "in", ids)
      .where("type", "=", "note")
      .groupBy("issue_id")
      .execute(),
    ctx.db
      .selectFrom("users")
      .select(["id", "email", "name"])
      .where("id", "in", [...new Set(issues.map((i) => i.assignee_id).filter((a): a is number => a !== null))].concat([-1]))
      .execute(),
    options.hourly ? hourlyCounts(ctx, ids, now) : Promise.resolve(null),
    teamIds.length ? ctx.db.selectFrom("teams").select(["id", "slug", "name"]).where("id", "in", teamIds).execute() : Promise.resolve([]),
  ]);
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const bookmarked = new Set(bookmarks.map((b) => b.issue_id));
  const commentCount = new Map(comments.map((c) => [c.issue_id, Number(c.n)]));
  const users = new Map(assignees.map((u) => [u.id, u]));
  for (const issue of issues) {
    const h = hourly?.get(issue.id);
    out.set(issue.id, {
      bookmarked: bookmarked.has(issue.id),
      assignee: issue.assignee_id !== null ? (users.get(issue.assignee_id) ?? null) : null,
      assigneeTeam: issue.assignee_team_id !== null ? (teamById.get(issue.assignee_team_id) ?? null) : null,
      comments: commentCount.get(issue.id) ?? 0,
      ...(h ? { hourly: h } : {}),
      now,
    });
  }
  return out;
}
