import type { CommitRecord, DeployRecord, ReleaseRecord, RepositoryRecord } from "../../core/ports/releases";
import type { ReleaseCounts } from "../../core/releases/counts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A deploy in Sentry's shape (https://docs.sentry.io/api/releases/list-a-releases-deploys/). */
export function serializeDeploy(d: DeployRecord) {
  return {
    id: String(d.id),
    environment: d.environment,
    name: d.name,
    url: d.url,
    dateStarted: iso(d.dateStarted),
    dateFinished: iso(d.dateFinished),
  };
}

export function serializeCommit(c: CommitRecord) {
  return {
    id: c.key,
    message: c.message,
    dateCreated: iso(c.timestamp),
    repository: { id: String(c.repositoryId), name: c.repositoryName },
    author: c.authorEmail || c.authorName ? { name: c.authorName, email: c.authorEmail } : null,
  };
}

/**
 * A release in Sentry's shape (https://docs.sentry.io/api/releases/retrieve-an-organizations-releases/),
 * with its events' counts where the caller read them; no health data yet.
 */
export function serializeRelease(r: ReleaseRecord, counts?: ReleaseCounts) {
  return {
    id: r.id,
    version: r.version,
    shortVersion: r.version,
    status: r.status,
    ref: r.ref,
    url: r.url,
    dateCreated: iso(r.dateCreated),
    dateStarted: iso(r.dateStarted),
    dateReleased: iso(r.dateReleased),
    data: {},
    newGroups: counts?.newGroups ?? 0,
    owner: null,
    firstEvent: iso(counts?.firstEvent ?? null),
    lastEvent: iso(counts?.lastEvent ?? null),
    commitCount: r.commitCount,
    lastCommit: r.lastCommit ? serializeCommit(r.lastCommit) : null,
    deployCount: r.deployCount,
    lastDeploy: r.lastDeploy ? serializeDeploy(r.lastDeploy) : null,
    authors: [],
    versionInfo: { package: null, version: { raw: r.version }, description: r.version, buildHash: null },
    projects: r.projects.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.name,
      newGroups: counts?.newGroupsByProject.get(p.id) ?? 0,
      platform: p.platform,
      platforms: [p.platform],
      hasHealthData: false,
    })),
  };
}

/** A repository in Sentry's shape (sentry-cli `Repo`: id, name, url, provider {id, name}, status, dateCreated). */
export function serializeRepository(r: RepositoryRecord) {
  const provider = r.provider ?? "custom";
  return {
    id: String(r.id),
    name: r.name,
    url: r.url,
    provider: { id: provider, name: provider },
    status: "active",
    dateCreated: iso(r.dateCreated),
    integrationId: null,
    externalSlug: null,
  };
}
