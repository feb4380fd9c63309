import Link from "next/link";
import { isTelltaleError } from "@/src/core/errors";
import { issueExtras } from "@/src/core/issues/extras";
import { DEFAULT_QUERY, listIssues, SORTS, type Sort } from "@/src/core/issues/list";
import { shortId } from "@/src/core/issues/queries";
import { listProjects } from "@/src/core/projects/queries";
import { topTagValues } from "@/src/core/issues/tag-suggestions";
import { QueryError } from "../../../components/query-error";
import { SearchBox } from "../../../components/search-box";
import { FilteredNote } from "../../../components/filtered-note";
import { Sparkline } from "../../../components/issue/sparkline";
import { LevelDot } from "../../../components/level-dot";
import { StreamKeys } from "../../../components/issue/stream-keys";
import { TriageForm } from "../../../components/issue/triage-form";
import { BulkBar } from "../../../components/issue/bulk-bar";
import { loadOrg } from "../../../lib/loaders";
import { ctx } from "../../../lib/app-runtime";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { streamPageLinks } from "../../../lib/stream-pages";

export const metadata = { title: "Issues" };

const RANGES = { "24h": 24, "7d": 24 * 7, "14d": 24 * 14, "30d": 24 * 30, all: 0 } as const;
type Range = keyof typeof RANGES;
const SORT_NAMES: Record<Sort, string> = { date: "Last seen", new: "First seen", freq: "Events", user: "Users" };

type Search = Promise<{
  project?: string;
  query?: string;
  sort?: string;
  cursor?: string;
  back?: string;
  range?: string;
  environment?: string;
}>;

const ago = (ms: number) => {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 90) return `${Math.round(s)}s`;
  if (s < 5400) return `${Math.round(s / 60)}min`;
  if (s < 129600) return `${Math.round(s / 3600)}h`;
  return `${Math.round(s / 86400)}d`;
};

/** The issue stream: the query lives in the URL, so a view can be shared as a link. */
export default async function IssuesPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Search }) {
  const { org: orgSlug } = await params;
  const sp = await searchParams;
  const access = await loadOrg("issue:read", orgSlug, `/orgs/${orgSlug}/issues`);
  const { org, user } = access;
  const c = ctx();
  const projects = await listProjects(c, access);
  const project = projects.find((p) => p.slug === sp.project) ?? null;
  const sort: Sort = sp.sort && sp.sort in SORTS ? (sp.sort as Sort) : "date";
  const range: Range = sp.range && sp.range in RANGES ? (sp.range as Range) : "all";
  const query = sp.query ?? DEFAULT_QUERY;
  const environment = sp.environment ?? "";
  const fullQuery = environment ? `${query} environment:"${environment.replaceAll('"', '\\"')}"` : query;
  const hours = RANGES[range];
  const result = await listIssues(c, {
    projectIds: (project ? [project] : projects).map((p) => p.id),
    query: fullQuery,
    sort,
    cursor: sp.cursor,
    limit: 25,
    user,
    since: hours ? c.now() - hours * 3_600_000 : undefined,
  }).catch((error: unknown) => {
    // A stale or edited cursor is the user's input: say so instead of failing the page.
    if (isTelltaleError(error) && error.code === "invalid_input")
      return { ok: false as const, error: { message: error.message, position: 0 } };
    throw error;
  });
  const issues = result.ok ? result.issues : [];
  const extras = await issueExtras(c, issues, user, { hourly: true });
  const environments = await c.issueSearch.environments(
    (project ? [project] : projects).map((p) => p.id),
    50,
  );
  const tagValues = await topTagValues(
    c,
    (project ? [project] : projects).map((p) => p.id),
  );
  const byId = new Map(projects.map((p) => [p.id, p]));
  const pages = streamPageLinks(sp.cursor, sp.back, result.ok ? result.nextCursor : null);
  const members = (await c.directory.members(org.id)).map((m) => ({ id: m.userId, label: m.name || m.email }));
  const teams = (await c.directory.teams(org.id)).map(({ team }) => ({ id: team.id, slug: team.slug }));
  const href = (changes: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    const merged: Record<string, string | undefined> = {
      project: project?.slug,
      query,
      sort,
      range: range === "all" ? undefined : range,
      environment: environment || undefined,
      ...changes,
    };
    for (const [k, v] of Object.entries(merged)) if (v) p.set(k, v);
    return `/orgs/${org.slug}/issues?${p.toString()}`;
  };

  return (
    <main style={{ maxWidth: 1200 }}>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          ...(project ? [{ label: project.name, href: `/orgs/${org.slug}/projects/${project.slug}/settings` }] : []),
          { label: "Issues" },
        ]}
      />
      <h1>Issues</h1>
      <form className="toolbar search" method="get" action={`/orgs/${org.slug}/issues`}>
        <select name="project" defaultValue={project?.slug ?? ""} style={{ width: "auto" }} aria-label="Project">
          <option value="">All projects</option>
          {projects.map((p) => (
            <option key={p.id} value={p.slug}>
              {p.name}
            </option>
          ))}
        </select>
        <select name="environment" defaultValue={environment} style={{ width: "auto" }} aria-label="Environment">
          <option value="">All environments</option>
          {environments.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
        <SearchBox defaultValue={query} tagValues={tagValues} placeholder="is:unresolved level:error release:1.2.*" />
        <select name="sort" defaultValue={sort} style={{ width: "auto" }} aria-label="Sort">
          {(Object.keys(SORTS) as Sort[]).map((s) => (
            <option key={s} value={s}>
              {SORT_NAMES[s]}
            </option>
          ))}
        </select>
        <select name="range" defaultValue={range} style={{ width: "auto" }} aria-label="Time range">
          {(Object.keys(RANGES) as Range[]).map((r) => (
            <option key={r} value={r}>
              {r === "all" ? "Any time" : `Last ${r}`}
            </option>
          ))}
        </select>
        <button type="submit" className="primary">
          Search
        </button>
      </form>
      {!result.ok && <QueryError query={fullQuery} error={result.error} />}
      <StreamKeys org={org.slug} userId={user.id} />
      <TriageForm org={org.slug} id="bulk" testId="bulk">
        <BulkBar members={members} teams={teams} />
        <section className="panel" style={{ padding: 0 }}>
          {issues.length === 0 ? (
            <>
              <p className="muted" style={{ padding: "1rem", paddingBottom: 0 }} data-testid="no-issues">
                No issues match.
              </p>
              <FilteredNote
                ctx={c}
                org={org.slug}
                projects={project ? [project] : projects}
                since={hours ? c.now() - hours * 3_600_000 : 0}
              />
            </>
          ) : (
            <table data-testid="issue-list">
              <thead>
                <tr>
                  <th style={{ width: 28 }} />
                  <th>Issue</th>
                  <th className="narrow-hide">Last 24 h</th>
                  <th style={{ textAlign: "right" }}>Events</th>
                  <th className="narrow-hide" style={{ textAlign: "right" }}>
                    Users
                  </th>
                </tr>
              </thead>
              <tbody>
                {issues.map((i) => {
                  const p = byId.get(i.project_id)!;
                  const x = extras.get(i.id)!;
                  return (
                    <tr
                      key={i.id}
                      className="issue-row"
                      data-testid="issue-row"
                      data-issue-id={i.id}
                      data-href={`/orgs/${org.slug}/issues/${i.id}`}
                    >
                      <td>
                        <input type="checkbox" name="issue" value={i.id} aria-label={`Select ${shortId(p, i)}`} style={{ width: "auto" }} />
                      </td>
                      <td>
                        <div className="title">
                          <LevelDot level={i.level} />
                          <Link href={`/orgs/${org.slug}/issues/${i.id}`}>{i.title}</Link>
                        </div>
                        <div className="muted-small">
                          {[shortId(p, i), i.culprit, `${ago(i.last_seen)} ago`, `first ${ago(i.first_seen)} ago`]
                            .filter(Boolean)
                            .join(" · ")}
                          {i.substatus === "regressed" && (
                            <span className="badge off" style={{ marginLeft: 6 }}>
                              regressed
                            </span>
                          )}
                          {i.status !== "unresolved" && (
                            <span className="badge" style={{ marginLeft: 6 }}>
                              {i.status}
                            </span>
                          )}
                          {x.bookmarked && " ★"}
                          {x.assignee && ` · ${x.assignee.name || x.assignee.email}`}
                          {x.assigneeTeam && ` · #${x.assigneeTeam.slug}`}
                        </div>
                      </td>
                      <td className="narrow-hide">
                        <Sparkline values={x.hourly ?? []} />
                      </td>
                      <td style={{ textAlign: "right" }}>{i.times_seen}</td>
                      <td className="narrow-hide" style={{ textAlign: "right" }}>
                        {i.user_count}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </section>
      </TriageForm>
      <nav className="row" style={{ justifyContent: "flex-end" }} aria-label="Pages">
        {sp.cursor && <Link href={href({ cursor: undefined, back: undefined })}>First page</Link>}
        {pages.previous && (
          <Link href={href({ ...pages.previous })} data-testid="previous-page">
            Previous page
          </Link>
        )}
        {pages.next && (
          <Link href={href({ ...pages.next })} data-testid="next-page">
            Next page
          </Link>
        )}
      </nav>
    </main>
  );
}
