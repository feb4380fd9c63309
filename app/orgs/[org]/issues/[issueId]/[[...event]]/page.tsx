import Link from "next/link";
import { notFound } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { eventAttachments } from "@/src/core/issues/attachments";
import { issueExtras } from "@/src/core/issues/extras";
import { fingerprintRules, issueHashes } from "@/src/core/issues/grouping-rules";
import { issueFrequency, parseFrequencyRange } from "@/src/core/issues/frequency";
import { FrequencyPanel } from "../../../../../components/issue/frequency-chart";
import {
  adjacentEvents,
  eventInProject,
  issueActivity,
  issueEventAt,
  issueEvents,
  issueInOrg,
  shortId,
  tagDistribution,
  type StoredEvent,
} from "@/src/core/issues/queries";
import type { NormalizedEvent } from "@/src/core/normalize/types";
import { OneBanner } from "../../../../../components/issue/one-banner";
import { AssignForm } from "../../../../../components/issue/assign-form";
import { ActivityList } from "../../../../../components/issue/activity";
import { Breadcrumbs } from "../../../../../components/issue/breadcrumbs";
import { ExceptionChain } from "../../../../../components/issue/exception";
import { ProcessingErrors } from "../../../../../components/issue/processing-errors";
import { KeyValues } from "../../../../../components/issue/key-values";
import { Contexts, shownContexts } from "../../../../../components/issue/contexts";
import { TagBars } from "../../../../../components/issue/tag-bars";
import { TriageForm } from "../../../../../components/issue/triage-form";
import { loadOrg } from "../../../../../lib/loaders";
import { ctx } from "../../../../../lib/app-runtime";
import { GroupingExplanation } from "../../../../../components/issue/grouping";
import { PageCrumbs } from "../../../../../components/shell/page-crumbs";
import { CurrentProject } from "../../../../../components/shell/current-project";
import { When } from "../../../../../components/when";
import { ago, exactUtc } from "../../../../../lib/dates";
import { decodePayload } from "@/src/core/storage/payload";

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

  const range = parseFrequencyRange(q.freq);
  const [extras, tags, activity, neighbours, events, members, frequency, rules, hashes, teams] = await Promise.all([
    issueExtras(c, [issue], user, { hourly: false }),
    tagDistribution(c, issue.id),
    issueActivity(c, issue.id),
    stored ? adjacentEvents(c, stored) : Promise.resolve({ previous: null, next: null }),
    listing ? issueEvents(c, issue.id, { limit: 100 }) : Promise.resolve([]),
    c.directory.members(org.id).then((all) => all.map((m) => ({ id: m.userId, email: m.email, name: m.name }))),
    issueFrequency(c, issue.id, c.now(), range),
    stored ? fingerprintRules(c, project.id) : Promise.resolve([]),
    stored ? issueHashes(c, issue.id) : Promise.resolve([]),
    c.directory.teams(org.id),
  ]);
  const extra = extras.get(issue.id)!;
  const event = stored ? (JSON.parse(decodePayload(stored.data)) as NormalizedEvent) : null;
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
  const searchHref = (key: string, value: string) =>
    `/orgs/${org.slug}/issues?project=${project.slug}&query=${encodeURIComponent(`${key}:"${value.replaceAll('"', '\\"')}"`)}`;
  const statusText =
    issue.status === "unresolved"
      ? issue.substatus === "regressed"
        ? "regressed"
        : issue.substatus === "new"
          ? "new"
          : "unresolved"
      : issue.status;

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
        <div className="issue-head">
          <div style={{ minWidth: 0 }}>
            <h1 data-testid="issue-title">{issue.title}</h1>
            <div className="culprit">{issue.culprit}</div>
          </div>
          <span className={`badge ${issue.status === "unresolved" ? "off" : "on"}`} data-testid="issue-status">
            {statusText}
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
          <FrequencyPanel data={frequency} hrefFor={(r) => keep({ freq: r === "24h" ? null : r })} />
        </div>

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
            <input type="hidden" name="on" value={extra.bookmarked ? "0" : "1"} />
            <button name="action" value="bookmark" data-testid="bookmark">
              {extra.bookmarked ? "★ Bookmarked" : "☆ Bookmark"}
            </button>
          </div>
        </TriageForm>
        <AssignForm
          org={org.slug}
          issueId={issue.id}
          assigneeId={issue.assignee_id}
          assigneeTeamId={issue.assignee_team_id}
          members={members}
          teams={teams.map(({ team }) => ({ id: team.id, slug: team.slug }))}
        >
          {trace && (
            <Link href={`/orgs/${org.slug}/traces/${trace}`} data-testid="trace-link">
              View trace
            </Link>
          )}
          <Link href={`${base}/events`}>All events</Link>
        </AssignForm>

        <div className="grid-2">
          <div>
            {listing ? (
              <section className="panel">
                <h2 style={{ marginTop: 0 }}>Events</h2>
                <table data-testid="events-list">
                  <thead>
                    <tr>
                      <th>Event</th>
                      <th>Time</th>
                      <th>Release</th>
                      <th>Environment</th>
                    </tr>
                  </thead>
                  <tbody>
                    {events.map((e) => (
                      <tr key={e.id}>
                        <td>
                          <Link href={`${base}/events/${e.event_id}`}>{e.event_id.slice(0, 8)}</Link>{" "}
                          <span className="muted">{e.title}</span>
                        </td>
                        <td>
                          <When ms={e.timestamp * 1000} />
                        </td>
                        <td>{e.release ?? ""}</td>
                        <td>{e.environment ?? ""}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
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
                <section className="panel">
                  <div className="row" style={{ justifyContent: "space-between" }}>
                    <div className="row" data-testid="event-nav">
                      <Link href={`${base}/oldest`}>Oldest</Link>
                      {neighbours.previous ? (
                        <Link href={`${base}/events/${neighbours.previous.event_id}`}>Previous</Link>
                      ) : (
                        <span className="muted">Previous</span>
                      )}
                      {neighbours.next ? (
                        <Link href={`${base}/events/${neighbours.next.event_id}`}>Next</Link>
                      ) : (
                        <span className="muted">Next</span>
                      )}
                      <Link href={`${base}/latest`}>Latest</Link>
                    </div>
                    <div className="muted-small">
                      Event <span data-testid="event-id">{stored.event_id}</span> · <When ms={event.timestamp * 1000} /> ·{" "}
                      {/* The raw JSON is an /api/ endpoint: a plain link, a full page load (PRODUCT.md fact 3). */}
                      <a href={`/api/0/projects/${org.slug}/${project.slug}/events/${stored.event_id}/`} data-testid="raw-json">
                        JSON
                      </a>
                    </div>
                  </div>
                </section>
                <ProcessingErrors errors={event.errors ?? []} />
                {event.exception && (
                  <section className="panel">
                    <div className="row" style={{ justifyContent: "space-between" }}>
                      <h2 style={{ margin: 0 }}>Exception</h2>
                      <div className="row">
                        <Link className={q.frames === "all" ? "badge" : "badge on"} href={keep({ frames: null })}>
                          In app
                        </Link>
                        <Link className={q.frames === "all" ? "badge on" : "badge"} href={keep({ frames: "all" })}>
                          Full
                        </Link>
                        <Link className={q.view === "raw" ? "badge on" : "badge"} href={keep({ view: q.view === "raw" ? null : "raw" })}>
                          Raw
                        </Link>
                      </div>
                    </div>
                    <ExceptionChain values={event.exception.values} full={q.frames === "all"} raw={q.view === "raw"} />
                  </section>
                )}
                {event.logentry && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>Message</h2>
                    <pre style={{ whiteSpace: "pre-wrap", background: "transparent", color: "inherit", padding: 0 }} data-testid="message">
                      {event.logentry.formatted}
                    </pre>
                  </section>
                )}
                {event.breadcrumbs && event.breadcrumbs.values.length > 0 && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>Breadcrumbs</h2>
                    <Breadcrumbs
                      crumbs={event.breadcrumbs.values}
                      level={q.bc_level ?? null}
                      category={q.bc_category ?? null}
                      href={(l, cat) => keep({ bc_level: l, bc_category: cat })}
                    />
                  </section>
                )}
                {event.request && (
                  <section className="panel" data-testid="request-panel">
                    <h2 style={{ marginTop: 0 }}>Request</h2>
                    <KeyValues
                      testId="request"
                      rows={[
                        ["URL", event.request.url],
                        ["Method", event.request.method],
                        ["Query", event.request.query_string],
                        ["Body", event.request.data],
                        ["Environment", event.request.env],
                      ]}
                    />
                    {/* Headers and cookies get full-width tables of their own: nested in a row they are unreadable at 390 px. */}
                    {event.request.headers && (
                      <>
                        <h3 className="kv-title">Headers</h3>
                        <KeyValues testId="request-headers" rows={event.request.headers} />
                      </>
                    )}
                    {event.request.cookies && (
                      <>
                        <h3 className="kv-title">Cookies</h3>
                        <KeyValues testId="request-cookies" rows={event.request.cookies} />
                      </>
                    )}
                  </section>
                )}
                {event.user && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>User</h2>
                    <KeyValues testId="user" rows={Object.entries(event.user)} />
                  </section>
                )}
                {event.contexts && shownContexts(event.contexts).length > 0 && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>Contexts</h2>
                    <Contexts contexts={event.contexts} />
                  </section>
                )}
                {(event.tags?.length ?? 0) > 0 && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>Tags</h2>
                    <KeyValues rows={event.tags ?? []} />
                  </section>
                )}
                {event.extra && Object.keys(event.extra).length > 0 && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>Additional data</h2>
                    <KeyValues rows={Object.entries(event.extra)} />
                  </section>
                )}
                <Attachments orgSlug={org.slug} projectSlug={project.slug} projectId={project.id} eventId={stored.event_id} />
                {event.sdk && (
                  <section className="panel">
                    <h2 style={{ marginTop: 0 }}>SDK</h2>
                    <KeyValues
                      rows={[
                        ["Name", event.sdk.name],
                        ["Version", event.sdk.version],
                        ["Integrations", event.sdk.integrations?.join(", ")],
                      ]}
                    />
                  </section>
                )}
                <GroupingExplanation event={event} config={issue.grouping_config} rules={rules} issueHashes={hashes} />
              </>
            )}
          </div>
          <aside>
            <section className="panel">
              <h2 style={{ marginTop: 0 }}>Tags</h2>
              <TagBars tags={tags} searchHref={searchHref} />
            </section>
            <section className="panel">
              <h2 style={{ marginTop: 0 }}>Activity</h2>
              <TriageForm org={org.slug} issueIds={[issue.id]} testId="comment-form">
                <textarea name="text" rows={3} placeholder="Add a comment" style={{ width: "100%", font: "inherit" }} />
                <button name="action" value="comment">
                  Comment
                </button>
              </TriageForm>
              <ActivityList entries={activity} />
            </section>
          </aside>
        </div>
      </OneBanner>
    </main>
  );
}

async function Attachments({
  orgSlug,
  projectSlug,
  projectId,
  eventId,
}: {
  orgSlug: string;
  projectSlug: string;
  projectId: number;
  eventId: string;
}) {
  const rows = await eventAttachments(ctx(), projectId, eventId);
  if (rows.length === 0) return null;
  return (
    <section className="panel">
      <h2 style={{ marginTop: 0 }}>Attachments</h2>
      <ul data-testid="attachments">
        {rows.map((a) => (
          <li key={a.id}>
            <a href={`/api/0/projects/${orgSlug}/${projectSlug}/events/${eventId}/attachments/${a.id}/?download=1`}>{a.name}</a>{" "}
            <span className="muted-small">
              {a.content_type}, {a.size} bytes
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
