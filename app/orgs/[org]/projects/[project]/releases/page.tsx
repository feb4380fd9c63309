import Link from "next/link";
import { releaseHealth } from "@/src/core/releases/health";
import { PageCrumbs } from "../../../../../components/shell/page-crumbs";
import { When } from "../../../../../components/when";
import { ctx } from "../../../../../lib/app-runtime";
import { loadProject } from "../../../../../lib/loaders";
import { latestPerEnvironment } from "./deploys";
import { adoptionText, EnvironmentFilter, environmentParam, filterQuery, rateText } from "./health";

const DAY = 86_400_000;

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }) {
  return { title: `${(await params).project} releases` };
}

/**
 * A project's releases: those sentry-cli made and those its events named, newest
 * first, with what the events say of each, where each was deployed and its health over the
 * last 14 days. `?environment=` filters all of it to one environment.
 */
export default async function ReleasesPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; project: string }>;
  searchParams: Promise<{ environment?: string | string[] }>;
}) {
  const { org: orgSlug, project: projectSlug } = await params;
  const environment = environmentParam((await searchParams).environment);
  const { org, project } = await loadProject("release:read", orgSlug, projectSlug, `/orgs/${orgSlug}/projects/${projectSlug}/releases`);
  const c = ctx();
  const environments = await c.releaseHealth.environments(project.id);
  let releases = await c.releases.releases(org.id, { projectIds: [project.id], limit: 100 });
  if (environment) {
    const seen = await c.releaseHealth.versionsIn(project.id, environment);
    releases = releases.filter((r) => seen.has(r.version));
  }
  const versions = releases.map((r) => r.version);
  const [stats, health] = await Promise.all([
    c.releases.releaseStats(project.id, versions, environment || undefined),
    releaseHealth(c, project.id, versions, { environment, since: c.now() - 14 * DAY }),
  ]);
  const deploys = new Map(
    await Promise.all(
      releases.map(
        async (r) =>
          [
            r.id,
            latestPerEnvironment((await c.releases.deploys(r.id)).filter((d) => !environment || d.environment === environment)),
          ] as const,
      ),
    ),
  );
  const base = `/orgs/${org.slug}/projects/${project.slug}/releases`;
  const query = filterQuery({ environment });
  return (
    <main>
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: project.name }, { label: "Releases" }]} />
      <h1>Releases</h1>
      <EnvironmentFilter action={base} environments={environments} environment={environment} />
      {releases.length === 0 && environment ? (
        <section className="panel" data-testid="no-releases">
          <p>No release was seen in {environment}.</p>
          <p className="muted">
            <Link href={base}>All environments</Link>
          </p>
        </section>
      ) : releases.length === 0 ? (
        <section className="panel" data-testid="no-releases">
          <p>No releases yet.</p>
          <p className="muted">
            A release appears when an event or session names it (the SDK&apos;s <code>release</code> option) or when
            <code> sentry-cli releases new</code> creates it; upload its source maps with <code>sentry-cli sourcemaps upload</code>.
          </p>
        </section>
      ) : (
        <section className="panel">
          <p className="muted-small">
            Crash-free sessions and users over the last 14 days; adoption: the share of the project&apos;s sessions in the last 24 hours
            {environment ? ` in ${environment}` : ""}.
          </p>
          <div className="table-scroll">
            <table data-testid="releases" className="fits-narrow">
              <thead>
                <tr>
                  <th>Version</th>
                  <th className="num" title="Sessions not ended by a crash, last 14 days">
                    Crash-free sessions
                  </th>
                  <th className="num" title="Users none of whose sessions crashed, last 14 days">
                    Crash-free users
                  </th>
                  <th className="num" title="Share of the project's sessions in the last 24 hours">
                    Adoption
                  </th>
                  <th className="narrow-hide">Created</th>
                  <th className="narrow-hide">Last event</th>
                  <th className="num narrow-hide">Events</th>
                  <th className="num narrow-hide">New issues</th>
                  <th className="narrow-hide">Deploys</th>
                  <th className="num narrow-hide">Commits</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => {
                  const s = stats.get(r.version);
                  const h = health.get(r.version);
                  return (
                    <tr key={r.id} data-testid="release-row">
                      <td className="release-version">
                        <Link href={`${base}/${encodeURIComponent(r.version)}${query}`}>{r.version}</Link>
                        {r.dateReleased !== null && <span className="badge on release-badge">finalized</span>}
                      </td>
                      <td className="num" data-testid="crash-free-sessions">
                        {rateText(h, "crashFreeSessions")}
                      </td>
                      <td className="num" data-testid="crash-free-users">
                        {h && h.users > 0 ? rateText(h, "crashFreeUsers") : "—"}
                      </td>
                      <td className="num" data-testid="adoption">
                        {adoptionText(h)}
                      </td>
                      <td className="narrow-hide">
                        <When ms={r.dateCreated} />
                      </td>
                      <td className="narrow-hide">{s?.lastSeen ? <When ms={s.lastSeen} /> : <span className="muted">none</span>}</td>
                      <td className="num narrow-hide">{s?.events ?? 0}</td>
                      <td className="num narrow-hide">{s?.newIssues ?? 0}</td>
                      <td className="narrow-hide">
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
                      <td className="num narrow-hide">{r.commitCount}</td>
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
