import Link from "next/link";
import { PageCrumbs } from "../../../../../components/shell/page-crumbs";
import { When } from "../../../../../components/when";
import { ctx } from "../../../../../lib/app-runtime";
import { loadProject } from "../../../../../lib/loaders";
import { latestPerEnvironment } from "./deploys";

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }) {
  return { title: `${(await params).project} releases` };
}

/**
 * A project's releases (issue 13): those sentry-cli made and those its events named, newest
 * first, with what the events say of each and where each was deployed.
 */
export default async function ReleasesPage({ params }: { params: Promise<{ org: string; project: string }> }) {
  const { org: orgSlug, project: projectSlug } = await params;
  const { org, project } = await loadProject("release:read", orgSlug, projectSlug, `/orgs/${orgSlug}/projects/${projectSlug}/releases`);
  const c = ctx();
  const releases = await c.releases.releases(org.id, { projectIds: [project.id], limit: 100 });
  const stats = await c.releases.releaseStats(
    project.id,
    releases.map((r) => r.version),
  );
  const deploys = new Map(
    await Promise.all(releases.map(async (r) => [r.id, latestPerEnvironment(await c.releases.deploys(r.id))] as const)),
  );
  const base = `/orgs/${org.slug}/projects/${project.slug}/releases`;
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: project.name }, { label: "Releases" }]} />
      <h1>Releases</h1>
      {releases.length === 0 ? (
        <section className="panel" data-testid="no-releases">
          <p>No releases yet.</p>
          <p className="muted">
            A release appears when an event or session names it (the SDK&apos;s <code>release</code> option) or when
            <code> sentry-cli releases new</code> creates it; upload its source maps with <code>sentry-cli sourcemaps upload</code>.
          </p>
        </section>
      ) : (
        <section className="panel">
          <div className="table-scroll">
            <table data-testid="releases">
              <thead>
                <tr>
                  <th>Version</th>
                  <th>Created</th>
                  <th>Last event</th>
                  <th className="num">Events</th>
                  <th className="num">New issues</th>
                  <th>Deploys</th>
                  <th className="num">Commits</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => {
                  const s = stats.get(r.version);
                  return (
                    <tr key={r.id} data-testid="release-row">
                      <td>
                        <Link href={`${base}/${encodeURIComponent(r.version)}`}>{r.version}</Link>
                        {r.dateReleased !== null && <span className="badge on release-badge">finalized</span>}
                      </td>
                      <td>
                        <When ms={r.dateCreated} />
                      </td>
                      <td>{s?.lastSeen ? <When ms={s.lastSeen} /> : <span className="muted">none</span>}</td>
                      <td className="num">{s?.events ?? 0}</td>
                      <td className="num">{s?.newIssues ?? 0}</td>
                      <td>
                        {(deploys.get(r.id) ?? []).length === 0 ? (
                          <span className="muted">none</span>
                        ) : (
                          (deploys.get(r.id) ?? []).map((d) => (
                            <span key={d.id} className="badge env-badge" title={`deployed to ${d.environment}`}>
                              {d.environment}
                            </span>
                          ))
                        )}
                      </td>
                      <td className="num">{r.commitCount}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </main>
  );
}
