import Link from "next/link";
import { notFound } from "next/navigation";
import { shortId } from "@/src/core/issues/queries";
import { healthPeriod, HEALTH_PERIODS, releaseHealth, type HealthPeriod } from "@/src/core/releases/health";
import { PageCrumbs } from "../../../../../../components/shell/page-crumbs";
import { When } from "../../../../../../components/when";
import { ctx } from "../../../../../../lib/app-runtime";
import { loadProject } from "../../../../../../lib/loaders";
import { latestPerEnvironment } from "../deploys";
import { EnvironmentFilter, environmentParam, filterQuery, HealthPanel } from "../health";

export async function generateMetadata({ params }: { params: Promise<{ version: string }> }) {
  return { title: `Release ${decodeURIComponent((await params).version)}` };
}

/**
 * One release of a project: its health, what its events say, the issues it
 * introduced, its deploys and commits; `?environment=` filters them to one environment.
 */
export default async function ReleasePage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; project: string; version: string }>;
  searchParams: Promise<{ environment?: string | string[]; period?: string | string[] }>;
}) {
  const { org: orgSlug, project: projectSlug, version: encoded } = await params;
  const sp = await searchParams;
  const environment = environmentParam(sp.environment);
  const period = healthPeriod(typeof sp.period === "string" ? sp.period : undefined);
  const version = decodeURIComponent(encoded);
  const { org, project } = await loadProject(
    "release:read",
    orgSlug,
    projectSlug,
    `/orgs/${orgSlug}/projects/${projectSlug}/releases/${encoded}`,
  );
  const c = ctx();
  const release = await c.releases.release(org.id, version);
  if (!release || !release.projects.some((p) => p.id === project.id)) notFound();
  const [stats, issues, deploys, commits, health, environments] = await Promise.all([
    c.releases.releaseStats(project.id, [version], environment || undefined).then((m) => m.get(version)),
    c.releases.newIssues(project.id, version, 25, environment || undefined),
    c.releases.deploys(release.id),
    c.releases.commits(release.id),
    releaseHealth(c, project.id, [version], { environment, since: c.now() - HEALTH_PERIODS[period] }).then((m) => m.get(version)),
    c.releaseHealth.environments(project.id),
  ]);
  const latest = latestPerEnvironment(deploys.filter((d) => !environment || d.environment === environment));
  const base = `/orgs/${org.slug}/projects/${project.slug}/releases`;
  const periodHref = (p: HealthPeriod) => `${base}/${encoded}${filterQuery({ environment, period: p })}`;
  return (
    <main>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          { label: project.name },
          { label: "Releases", href: `${base}${filterQuery({ environment })}` },
          { label: version },
        ]}
      />
      <h1 className="release-title" data-testid="release-version">
        {version}
      </h1>
      <EnvironmentFilter action={`${base}/${encoded}`} environments={environments} environment={environment} period={period} />
      {health && <HealthPanel health={health} period={period} periodHref={periodHref} environment={environment} />}
      <section className="panel">
        <dl className="facts" data-testid="release-facts">
          <div>
            <dt>Created</dt>
            <dd>
              <When ms={release.dateCreated} />
            </dd>
          </div>
          <div>
            <dt>Finalized</dt>
            <dd>{release.dateReleased !== null ? <When ms={release.dateReleased} /> : <span className="muted">not yet</span>}</dd>
          </div>
          <div>
            <dt>First event</dt>
            <dd>{stats?.firstSeen ? <When ms={stats.firstSeen} /> : <span className="muted">none</span>}</dd>
          </div>
          <div>
            <dt>Last event</dt>
            <dd>{stats?.lastSeen ? <When ms={stats.lastSeen} /> : <span className="muted">none</span>}</dd>
          </div>
          <div>
            <dt>Events</dt>
            <dd>{stats?.events ?? 0}</dd>
          </div>
          <div>
            <dt>New issues</dt>
            <dd>{stats?.newIssues ?? 0}</dd>
          </div>
        </dl>
        {release.ref && (
          <p className="muted-small">
            Ref <code>{release.ref}</code>
          </p>
        )}
      </section>
      <section className="panel">
        <h2 className="panel-title">New issues in this release</h2>
        {issues.length === 0 ? (
          <p className="muted">No issue was first seen in this release{environment ? ` in ${environment}` : ""}.</p>
        ) : (
          <ul className="plain-list" data-testid="release-issues">
            {issues.map((i) => (
              <li key={i.id}>
                <Link href={`/orgs/${org.slug}/issues/${i.id}`}>{i.title}</Link>{" "}
                <span className="muted">
                  {shortId(project, { short_number: i.shortNumber })} · {i.timesSeen === 1 ? "1 event" : `${i.timesSeen} events`} · last{" "}
                  <When ms={i.lastSeen} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel">
        <h2 className="panel-title">Deploys</h2>
        {latest.length === 0 ? (
          <p className="muted">
            Not deployed{environment ? ` to ${environment}` : ""} (sentry-cli deploys new --release {version} -e{" "}
            {environment || "production"}).
          </p>
        ) : (
          <ul className="plain-list" data-testid="release-deploys">
            {latest.map((d) => (
              <li key={d.id}>
                <strong>{d.environment}</strong> <When ms={d.dateFinished} />
                {d.name && <span className="muted"> · {d.name}</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel">
        <h2 className="panel-title">Commits</h2>
        {commits.length === 0 ? (
          <p className="muted">None set (sentry-cli releases set-commits).</p>
        ) : (
          <ul className="plain-list" data-testid="release-commits">
            {commits.map((m) => (
              <li key={`${m.repositoryId}:${m.key}`}>
                <code>{m.key.slice(0, 12)}</code> {m.message ? m.message.split("\n")[0] : <span className="muted">no message</span>}
                <span className="muted">
                  {" "}
                  · {m.repositoryName}
                  {m.authorName ? ` · ${m.authorName}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
