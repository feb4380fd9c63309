import type { Ctx } from "../context";
import { hourlyCounts } from "./queries";
import type { Issue, IssuePerson, IssueTeam } from "./issue";

export interface IssueExtraInfo {
  bookmarked: boolean;
  assignee: IssuePerson | null;
  /** The team the issue is assigned to instead of a person. */
  assigneeTeam: IssueTeam | null;
  comments: number;
  hourly?: number[];
  now: number;
}

/** What a list or page shows beside each issue: bookmark, assignee, comment count, 24 h counts. */
export async function issueExtras(
  ctx: Ctx,
  issues: readonly Issue[],
  user: { id: number },
  options: { hourly: boolean },
): Promise<Map<number, IssueExtraInfo>> {
  const ids = issues.map((i) => i.id);
  const now = ctx.now();
  const out = new Map<number, IssueExtraInfo>();
  if (ids.length === 0) return out;
  const assigneeIds = [...new Set(issues.map((i) => i.assignee_id).filter((a): a is number => a !== null))];
  const teamIds = [...new Set(issues.map((i) => i.assignee_team_id).filter((t): t is number => t !== null))];
  const reader = ctx.issueReader;
  const [bookmarked, comments, assignees, hourly, teams] = await Promise.all([
    reader.bookmarked(ids, user.id),
    reader.commentCounts(ids),
    reader.people(assigneeIds),
    options.hourly ? hourlyCounts(ctx, ids, now) : Promise.resolve(null),
    reader.teams(teamIds),
  ]);
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const users = new Map(assignees.map((u) => [u.id, u]));
  for (const issue of issues) {
    const h = hourly?.get(issue.id);
    out.set(issue.id, {
      bookmarked: bookmarked.has(issue.id),
      assignee: issue.assignee_id !== null ? (users.get(issue.assignee_id) ?? null) : null,
      assigneeTeam: issue.assignee_team_id !== null ? (teamById.get(issue.assignee_team_id) ?? null) : null,
      comments: comments.get(issue.id) ?? 0,
      ...(h ? { hourly: h } : {}),
      now,
    });
  }
  return out;
}
