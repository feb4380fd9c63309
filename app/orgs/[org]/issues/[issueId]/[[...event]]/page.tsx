import Link from "next/link";
import { notFound } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { storedEventPayload } from "@/src/core/issues/event-payload";
import { parseFrequencyRange } from "@/src/core/issues/frequency";
import { eventInProject, issueEventAt, issueInOrg, shortId, type StoredEvent } from "@/src/core/issues/queries";
import { OneBanner } from "@/app/components/issue/one-banner";
import { EventDetails } from "@/app/components/issue/sections/event-details";
import { EventNav } from "@/app/components/issue/sections/event-nav";
import { EventsList } from "@/app/components/issue/sections/events-list";
import { GroupingSection } from "@/app/components/issue/sections/grouping-section";
import { IssueActions } from "@/app/components/issue/sections/issue-actions";
import { IssueHeader } from "@/app/components/issue/sections/issue-header";
import { IssueSidebar } from "@/app/components/issue/sections/issue-sidebar";
import { PageCrumbs } from "@/app/components/shell/page-crumbs";
import { CurrentProject } from "@/app/components/shell/current-project";
import { loadOrg } from "@/app/lib/loaders";
import { ctx } from "@/app/lib/app-runtime";

type Params = Promise<{ org: string; issueId: string; event?: string[] }>;
type Search = Promise<{ frames?: string; view?: string; bc_level?: string; bc_category?: string; freq?: string }>;

async function load(orgSlug: string, issueRef: string, returnTo: string) {
  const access = await loadOrg("issue:read", orgSlug, returnTo);
  if (!/^\d+$/.test(issueRef)) notFound();
  try {
    return { ...access, ...(await issueInOrg(ctx(), access, Number(issueRef))) };
  } catch (error) {
    if (isTelltaleError(error) && error.code === "not_found") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }) {
  return { title: `Issue ${(await params).issueId}` };
}

/**
 * The issue page: which event it shows comes from the path (latest, oldest, one by id, or the
 * list of events); each section reads what it shows through core.
 */
export default async function IssuePage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { org: orgSlug, issueId, event: eventPath = [] } = await params;
  const q = await searchParams;
  const base = `/orgs/${orgSlug}/issues/${issueId}`;
  const { org, user, issue, project } = await load(orgSlug, issueId, base);
  const c = ctx();

  const listing = eventPath[0] === "events" && eventPath.length === 1;
  let stored: StoredEvent | null = null;
  if (eventPath[0] === "events" && eventPath[1]) {
    try {
      stored = await eventInProject(c, project.id, eventPath[1]);
    } catch {
      notFound();
    }
    if (stored.issue_id !== issue.id) notFound();
  } else if (eventPath[0] === "oldest") stored = await issueEventAt(c, issue.id, "oldest");
  else if (eventPath.length === 0 || eventPath[0] === "latest") stored = await issueEventAt(c, issue.id, "latest");
  else if (!listing) notFound();

  const event = stored ? storedEventPayload(stored) : null;
  const eventBase = stored ? `${base}/events/${stored.event_id}` : base;
  const keep = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams();
    const merged = {
      frames: q.frames ?? null,
      view: q.view ?? null,
      bc_level: q.bc_level ?? null,
      bc_category: q.bc_category ?? null,
      freq: q.freq ?? null,
      ...changes,
    };
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    const s = p.toString();
    return s ? `${eventBase}?${s}` : eventBase;
  };

  const trace = event?.contexts?.trace?.trace_id;

  return (
    <main style={{ maxWidth: 1200 }}>
      <CurrentProject slug={project.slug} />
      <OneBanner>
        <PageCrumbs
          items={[
            { label: "Issues", href: `/orgs/${org.slug}/issues` },
            { label: project.name, href: `/orgs/${org.slug}/issues?project=${project.slug}` },
            { label: <span data-testid="short-id">{shortId(project, issue)}</span> },
          ]}
        />
        <IssueHeader issue={issue} range={parseFrequencyRange(q.freq)} hrefFor={(r) => keep({ freq: r === "24h" ? null : r })} />
        <IssueActions org={org} issue={issue} user={user} base={base} trace={trace ? String(trace) : undefined} />

        <div className="grid-2">
          <div>
            {listing ? (
              <EventsList issueId={issue.id} base={base} />
            ) : !stored || !event ? (
              <section className="panel">
                {issue.merged_into_id !== null ? (
                  <p className="muted" data-testid="merged-into">
                    Its events were merged into{" "}
                    <Link href={`/orgs/${org.slug}/issues/${issue.merged_into_id}`}>the issue they now belong to</Link>; Unmerge moves them
                    back.
                  </p>
                ) : (
                  <p className="muted">No stored events: they may have passed retention.</p>
                )}
              </section>
            ) : (
              <>
                <EventNav
                  stored={stored}
                  timestamp={event.timestamp}
                  base={base}
                  jsonHref={`/api/0/projects/${org.slug}/${project.slug}/events/${stored.event_id}/`}
                />
                <EventDetails
                  event={event}
                  q={q}
                  keep={keep}
                  orgSlug={org.slug}
                  projectSlug={project.slug}
                  projectId={project.id}
                  eventId={stored.event_id}
                />
                <GroupingSection event={event} config={issue.grouping_config} projectId={project.id} issueId={issue.id} />
              </>
            )}
          </div>
          <IssueSidebar orgSlug={org.slug} projectSlug={project.slug} issueId={issue.id} />
        </div>
      </OneBanner>
    </main>
  );
}
