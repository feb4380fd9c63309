/**
 * Releases as sentry-cli and Sentry's API see them: per organization, with projects,
 * deploys and commits from repositories registered by API. Implemented over the main database
 * by src/db/release-store.ts.
 */

export interface ReleaseProject {
  id: number;
  slug: string;
  name: string;
  platform: string;
}

export interface CommitRecord {
  repositoryId: number;
  repositoryName: string;
  key: string;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  timestamp: number | null;
}

export interface DeployRecord {
  id: number;
  environment: string;
  name: string | null;
  url: string | null;
  dateStarted: number | null;
  dateFinished: number;
}

export interface ReleaseStats {
  events: number;
  firstSeen: number | null;
  lastSeen: number | null;
  newIssues: number;
}

/** What still names a release, so that deleting it would leave them pointing at nothing. */
export interface ReleaseReferences {
  /** Issues it introduced, or events tagged with it. */
  issues: boolean;
  /** Release-health sessions. */
  health: boolean;
}

export interface ReleaseRecord {
  id: number;
  organizationId: number;
  version: string;
  ref: string | null;
  url: string | null;
  status: string;
  dateCreated: number;
  dateStarted: number | null;
  dateReleased: number | null;
  projects: ReleaseProject[];
  commitCount: number;
  /** The newest commit set on the release (the first of the list sentry-cli sends). */
  lastCommit: CommitRecord | null;
  deployCount: number;
  lastDeploy: DeployRecord | null;
}

export interface RepositoryRecord {
  id: number;
  organizationId: number;
  name: string;
  url: string | null;
  provider: string | null;
  dateCreated: number;
}

export interface ReleaseChange {
  ref?: string | null;
  url?: string | null;
  dateReleased?: number | null;
  status?: "open" | "archived";
  /** Projects to add to the release (Sentry only adds). */
  projectIds?: readonly number[];
}

export interface NewCommit {
  repositoryId: number;
  key: string;
  message: string | null;
  authorName: string | null;
  authorEmail: string | null;
  timestamp: number | null;
}

export interface ReleaseStore {
  /** Creates the release or, when it exists, adds the projects to it (Sentry's POST does both). */
  upsertRelease(
    organizationId: number,
    input: { version: string; ref: string | null; url: string | null; dateStarted: number | null; dateReleased: number | null },
    projectIds: readonly number[],
    now: number,
  ): Promise<{ release: ReleaseRecord; created: boolean }>;
  release(organizationId: number, version: string): Promise<ReleaseRecord | null>;
  /**
   * What a project's events say of its releases: events (counted per issue as tagged), when the
   * release was first and last seen, and the issues it introduced (their first release). With an
   * environment: its stored events in that environment, and the issues seen there.
   */
  releaseStats(projectId: number, versions: readonly string[], environment?: string): Promise<Map<string, ReleaseStats>>;
  /** The issues a release introduced in a project (seen in `environment`, when given), most seen first. */
  newIssues(
    projectId: number,
    version: string,
    limit: number,
    environment?: string,
  ): Promise<{ id: number; shortNumber: number; title: string; timesSeen: number; lastSeen: number }[]>;
  /** The release an event or session of the project names: created in the project's organization and linked to the project if missing. */
  noteSeen(projectId: number, version: string, now: number): Promise<void>;
  /** Newest first; `projectIds` null means every project, otherwise releases touching one of them. */
  releases(organizationId: number, filter: { projectIds: readonly number[] | null; limit: number }): Promise<ReleaseRecord[]>;
  updateRelease(releaseId: number, change: ReleaseChange): Promise<void>;
  deleteRelease(releaseId: number): Promise<void>;
  /** Whether issues, events or sessions of these projects still name the version. */
  releaseReferences(projectIds: readonly number[], version: string): Promise<ReleaseReferences>;

  addDeploy(releaseId: number, deploy: Omit<DeployRecord, "id">): Promise<DeployRecord>;
  deploys(releaseId: number): Promise<DeployRecord[]>;

  repositories(organizationId: number): Promise<RepositoryRecord[]>;
  /** Null when the organization already has a repository of this name. */
  insertRepository(
    organizationId: number,
    repo: { name: string; url: string | null; provider: string | null },
    now: number,
  ): Promise<RepositoryRecord | null>;

  /** Replaces the release's commits (newest first, as sentry-cli sends them). */
  setCommits(releaseId: number, commits: readonly NewCommit[]): Promise<void>;
  /** Replaces the release's head commits (`--commit repo@from..to`), one per repository. */
  setHeadCommits(releaseId: number, heads: readonly { repositoryId: number; key: string; previousKey: string | null }[]): Promise<void>;
  commits(releaseId: number): Promise<CommitRecord[]>;
  /** The newest release of the organization created before this one that has commits. */
  previousWithCommits(organizationId: number, release: ReleaseRecord): Promise<ReleaseRecord | null>;
}
