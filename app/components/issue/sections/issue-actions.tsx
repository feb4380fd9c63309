import Link from "next/link";
import { issueExtras } from "@/src/core/issues/extras";
import type { Issue } from "@/src/core/issues/issue";
import type { User } from "@/src/core/accounts/user";
import { AssignForm } from "@/app/components/issue/assign-form";
import { TriageForm } from "@/app/components/issue/triage-form";
import { ctx } from "@/app/lib/app-runtime";

/** Resolve, ignore, bookmark and assign, with the links to the trace and to every event. */
export async function IssueActions({
  org,
  issue,
  user,
  base,
  trace,
}: {
  org: { id: number; slug: string };
  issue: Issue;
  user: User;
  base: string;
  trace: string | undefined;
}) {
  const c = ctx();
  const [extras, members, teams] = await Promise.all([
    issueExtras(c, [issue], user, { hourly: false }),
    c.directory.members(org.id),
    c.directory.teams(org.id),
  ]);
  const bookmarked = extras.get(issue.id)!.bookmarked;
  return (
    <>
      <TriageForm org={org.slug} issueIds={[issue.id]} testId="triage">
        <div className="toolbar">
          {issue.status !== "resolved" ? (
            <>
              <button name="action" value="resolve" className="primary">
                Resolve
              </button>
              <button name="action" value="resolveInNextRelease">
                Resolve in next release
              </button>
            </>
          ) : (
            <button name="action" value="unresolve">
              Unresolve
            </button>
          )}
          {issue.status !== "ignored" ? (
            <>
              <button name="action" value="ignoreForever">
                Ignore
              </button>
              <button name="action" value="ignoreMinutes">
                Ignore 1h
              </button>
              <input type="hidden" name="minutes" value="60" />
              <input type="hidden" name="count" value="100" />
              <input type="hidden" name="users" value="10" />
              <button name="action" value="ignoreCount">
                Ignore until 100 more events
              </button>
              <button name="action" value="ignoreUsers">
                Ignore until 10 more users
              </button>
            </>
          ) : (
            <button name="action" value="unresolve">
              Stop ignoring
            </button>
          )}
          {issue.merged_into_id !== null && (
            <button name="action" value="unmerge" data-testid="unmerge">
              Unmerge
            </button>
          )}
          <input type="hidden" name="on" value={bookmarked ? "0" : "1"} />
          <button name="action" value="bookmark" data-testid="bookmark">
            {bookmarked ? "★ Bookmarked" : "☆ Bookmark"}
          </button>
        </div>
      </TriageForm>
      <AssignForm
        org={org.slug}
        issueId={issue.id}
        assigneeId={issue.assignee_id}
        assigneeTeamId={issue.assignee_team_id}
        members={members.map((m) => ({ id: m.userId, email: m.email, name: m.name }))}
        teams={teams.map(({ team }) => ({ id: team.id, slug: team.slug }))}
      >
        {trace && (
          <Link href={`/orgs/${org.slug}/traces/${trace}`} data-testid="trace-link">
            View trace
          </Link>
        )}
        <Link href={`${base}/events`}>All events</Link>
      </AssignForm>
    </>
  );
}
