import { issueFrequency, type FrequencyRange } from "@/src/core/issues/frequency";
import type { Issue } from "@/src/core/issues/issue";
import { FrequencyPanel } from "@/app/components/issue/frequency-chart";
import { ctx } from "@/app/lib/app-runtime";
import { ago, exactUtc } from "@/app/lib/dates";

function statusText(issue: Issue): string {
  if (issue.status !== "unresolved") return issue.status;
  return issue.substatus === "regressed" ? "regressed" : issue.substatus === "new" ? "new" : "unresolved";
}

/** The issue's title, status, counts and frequency chart. */
export async function IssueHeader({
  issue,
  range,
  hrefFor,
}: {
  issue: Issue;
  range: FrequencyRange;
  hrefFor: (range: FrequencyRange) => string;
}) {
  const c = ctx();
  const frequency = await issueFrequency(c, issue.id, c.now(), range);
  return (
    <>
      <div className="issue-head">
        <div style={{ minWidth: 0 }}>
          <h1 data-testid="issue-title">{issue.title}</h1>
          <div className="culprit">{issue.culprit}</div>
        </div>
        <span className={`badge ${issue.status === "unresolved" ? "off" : "on"}`} data-testid="issue-status">
          {statusText(issue)}
        </span>
      </div>
      <div className="issue-counts">
        <div className="stats-row">
          <div>
            <span className="muted-small">Events</span>
            <strong data-testid="issue-count">{issue.times_seen}</strong>
          </div>
          <div>
            <span className="muted-small">Users</span>
            <strong>{issue.user_count}</strong>
          </div>
          <div>
            <span className="muted-small">First seen</span>
            <strong title={exactUtc(issue.first_seen)}>{ago(issue.first_seen)}</strong>
            <span className="muted-small">{issue.first_release ?? ""}</span>
          </div>
          <div>
            <span className="muted-small">Last seen</span>
            <strong title={exactUtc(issue.last_seen)}>{ago(issue.last_seen)}</strong>
            <span className="muted-small">{issue.last_release ?? ""}</span>
          </div>
        </div>
        <FrequencyPanel data={frequency} hrefFor={hrefFor} />
      </div>
    </>
  );
}
