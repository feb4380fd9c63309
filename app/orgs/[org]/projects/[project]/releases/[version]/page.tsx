import Link from "next/link";
import { notFound } from "next/navigation";
import { shortId } from "@/src/core/issues/queries";
import { PageCrumbs } from "../../../../../../components/shell/page-crumbs";
import { When } from "../../../../../../components/when";
import { ctx } from "../../../../../../lib/app-runtime";
import { loadProject } from "../../../../../../lib/loaders";
import { latestPerEnvironment } from "../deploys";

export async function generateMetadata({ params }: { params: Promise<{ version: string }> }) {
  return { title: `Release ${decodeURIComponent((await params).version)}` };
}

/** One release of a project (issue 13): what its events say, the issues it introduced, its deploys and commits. */
export default async function ReleasePage({ params }: { params: Promise<{ org: string; project: string; version: string }> }) {
  const { org: orgSlug, project: projectSlug, version: encoded } = await params;
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
  const [stats, issues, deploys, commits] = await Promise.all([
    c.releases.releaseStats(project.id, [version]).then((m) => m.get(version)),
    c.releases.newIssues(project.id, version, 25),
    c.releases.deploys(release.id),
    c.releases.commits(release.id),
  ]);
  const latest = latestPerEnvironment(deploys);
  return (
    <main>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          { label: project.name },
          { label: "Releases", href: `/orgs/${org.slug}/projects/${project.slug}/releases` },
          { label: version },
        ]}
      />
      <h1 className="release-title" data-testid="release-version">
        {version}
      </h1>
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
          <p className="muted">No issue was first seen in this release.</p>
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
          <p className="muted">Not deployed (sentry-cli deploys new --release {version} -e production).</p>
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
