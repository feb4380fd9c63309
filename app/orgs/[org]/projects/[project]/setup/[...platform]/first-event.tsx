import Link from "next/link";
import { firstIssue } from "@/src/core/projects/first-issue";
import { RefreshEvery } from "../../../../../../components/refresh-every";
import { ctx } from "../../../../../../lib/app-runtime";

/** How often the waiting panel asks again; the digest usually stores an event within a second. */
const POLL_MS = 2000;

/** "Waiting for the first event…" until the project has an issue, then a link to it. */
export async function FirstEvent({ org, projectId }: { org: string; projectId: number }) {
  const issue = await firstIssue(ctx(), projectId);
  if (!issue) {
    return (
      <section className="panel first-event waiting" data-testid="first-event" aria-live="polite">
        <span className="pulse" aria-hidden="true" />
        <div>
          <strong>Waiting for the first event…</strong>
          <p className="muted-small">Run the snippet below; this panel links to the event&apos;s issue as soon as it arrives.</p>
        </div>
        <RefreshEvery ms={POLL_MS} />
      </section>
    );
  }
  return (
    <section className="panel first-event arrived" data-testid="first-event" aria-live="polite">
      <div>
        <strong>The first event arrived.</strong>
        <p>
          <Link href={`/orgs/${org}/issues/${issue.id}`} data-testid="first-issue">
            {issue.title}
          </Link>
        </p>
      </div>
    </section>
  );
}
