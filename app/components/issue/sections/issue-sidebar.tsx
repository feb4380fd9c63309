import { issueActivity, tagDistribution } from "@/src/core/issues/queries";
import { ActivityList } from "@/app/components/issue/activity";
import { TagBars } from "@/app/components/issue/tag-bars";
import { TriageForm } from "@/app/components/issue/triage-form";
import { ctx } from "@/app/lib/app-runtime";

/** The issue's tag distribution, each value a search, and its activity with the comment form. */
export async function IssueSidebar({ orgSlug, projectSlug, issueId }: { orgSlug: string; projectSlug: string; issueId: number }) {
  const [tags, activity] = await Promise.all([tagDistribution(ctx(), issueId), issueActivity(ctx(), issueId)]);
  const searchHref = (key: string, value: string) =>
    `/orgs/${orgSlug}/issues?project=${projectSlug}&query=${encodeURIComponent(`${key}:"${value.replaceAll('"', '\\"')}"`)}`;
  return (
    <aside>
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Tags</h2>
        <TagBars tags={tags} searchHref={searchHref} />
      </section>
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Activity</h2>
        <TriageForm org={orgSlug} issueIds={[issueId]} testId="comment-form">
          <textarea name="text" rows={3} placeholder="Add a comment" style={{ width: "100%", font: "inherit" }} />
          <button name="action" value="comment">
            Comment
          </button>
        </TriageForm>
        <ActivityList entries={activity} />
      </section>
    </aside>
  );
}
