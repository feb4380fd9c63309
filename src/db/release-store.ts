import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import type {
  CommitRecord,
  DeployRecord,
  NewCommit,
  ReleaseChange,
  ReleaseRecord,
  ReleaseReferences,
  ReleaseStats,
  ReleaseStore,
  RepositoryRecord,
} from "../core/ports/releases";
import type { DB } from "./schema";
import { releaseReferences } from "./release-references";
import type { DeploysTable, ReleasesTable, RepositoriesTable } from "./schema-releases";

const deployRecord = (d: Selectable<DeploysTable>): DeployRecord => ({
  id: d.id,
  environment: d.environment,
  name: d.name,
  url: d.url,
  dateStarted: d.date_started,
  dateFinished: d.date_finished,
});

const repositoryRecord = (r: Selectable<RepositoriesTable>): RepositoryRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  url: r.url,
  provider: r.provider,
  dateCreated: r.date_created,
});

/** The issue (of the outer query on `issues`) was seen in the environment: one lookup by its tag's key. */
const seenIn = (selectFrom: ExpressionBuilder<DB, "issues">["selectFrom"], environment: string) =>
  selectFrom("issue_tags")
    .select("issue_tags.issue_id")
    .whereRef("issue_tags.issue_id", "=", "issues.id")
    .where("issue_tags.key", "=", "environment")
    .where("issue_tags.value", "=", environment);

/** Releases, deploys, repositories and commits over the main database (src/core/ports/releases.ts). */
export class KyselyReleaseStore implements ReleaseStore {
  constructor(private readonly db: Kysely<DB>) {}

  /** Rows with what Sentry's release shape shows beside them: projects, commits and deploys. */
  private async records(rows: Selectable<ReleasesTable>[]): Promise<ReleaseRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const projects = await this.db
      .selectFrom("release_projects as rp")
      .innerJoin("projects as p", "p.id", "rp.project_id")
      .select(["rp.release_id", "p.id", "p.slug", "p.name", "p.platform"])
      .where("rp.release_id", "in", ids)
      .orderBy("p.slug")
      .execute();
    const commits = await this.db
      .selectFrom("release_commits as c")
      .innerJoin("repositories as r", "r.id", "c.repository_id")
      .select([
        "c.release_id",
        "c.repository_id",
        "r.name",
        "c.commit_key",
        "c.message",
        "c.author_name",
        "c.author_email",
        "c.timestamp",
        "c.position",
      ])
      .where("c.release_id", "in", ids)
      .orderBy("c.position")
      .execute();
    const deploys = await this.db.selectFrom("deploys").selectAll().where("release_id", "in", ids).orderBy("id", "desc").execute();
    return rows.map((r) => {
      const mine = commits.filter((c) => c.release_id === r.id);
      const first = mine[0];
      const myDeploys = deploys.filter((d) => d.release_id === r.id);
      return {
        id: r.id,
        organizationId: r.organization_id,
        version: r.version,
        ref: r.ref,
        url: r.url,
        status: r.status,
        dateCreated: r.date_created,
        dateStarted: r.date_started,
        dateReleased: r.date_released,
        projects: projects
          .filter((p) => p.release_id === r.id)
          .map((p) => ({ id: p.id, slug: p.slug, name: p.name, platform: p.platform })),
        commitCount: mine.length,
        lastCommit: first
          ? {
              repositoryId: first.repository_id,
              repositoryName: first.name,
              key: first.commit_key,
              message: first.message,
              authorName: first.author_name,
              authorEmail: first.author_email,
              timestamp: first.timestamp,
            }
          : null,
        deployCount: myDeploys.length,
        lastDeploy: myDeploys[0] ? deployRecord(myDeploys[0]) : null,
      };
    });
  }

  async upsertRelease(
    organizationId: number,
    input: { version: string; ref: string | null; url: string | null; dateStarted: number | null; dateReleased: number | null },
    projectIds: readonly number[],
    now: number,
  ): Promise<{ release: ReleaseRecord; created: boolean }> {
    const created = await this.db.transaction().execute(async (tx) => {
      let row = await tx
        .selectFrom("releases")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where("version", "=", input.version)
        .executeTakeFirst();
      const isNew = !row;
      if (!row) {
        row = await tx
          .insertInto("releases")
          .values({
            organization_id: organizationId,
            version: input.version,
            ref: input.ref,
            url: input.url,
            date_created: now,
            date_started: input.dateStarted,
            date_released: input.dateReleased,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      }
      for (const projectId of projectIds) {
        await tx
          .insertInto("release_projects")
          .values({ release_id: row.id, project_id: projectId })
          .onConflict((oc) => oc.columns(["release_id", "project_id"]).doNothing())
          .execute();
      }
      return isNew;
    });
    const release = await this.release(organizationId, input.version);
    if (!release) throw new Error(`release ${input.version} vanished after it was written`);
    return { release, created };
  }

  async releaseStats(projectId: number, versions: readonly string[], environment?: string): Promise<Map<string, ReleaseStats>> {
    const out = new Map<string, ReleaseStats>(versions.map((v) => [v, { events: 0, firstSeen: null, lastSeen: null, newIssues: 0 }]));
    if (versions.length === 0) return out;
    if (environment !== undefined) {
      // Per environment the issues' tags do not tell (a release tag's count is over all environments): the stored events do.
      const seen = await this.db
        .selectFrom("events")
        .select((eb) => [
          "release",
          eb.fn.countAll<number | string>().as("events"),
          eb.fn.min<number>("timestamp").as("first"),
          eb.fn.max<number>("timestamp").as("last"),
        ])
        .where("project_id", "=", projectId)
        .where("environment", "=", environment)
        .where("release", "in", versions)
        .groupBy("release")
        .execute();
      for (const row of seen) {
        const stats = row.release === null ? undefined : out.get(row.release);
        if (stats)
          Object.assign(stats, {
            events: Number(row.events),
            firstSeen: Math.round(Number(row.first) * 1000),
            lastSeen: Math.round(Number(row.last) * 1000),
          });
      }
    } else {
      const seen = await this.db
        .selectFrom("issue_tags")
        .innerJoin("issues", "issues.id", "issue_tags.issue_id")
        .select((eb) => [
          "issue_tags.value",
          eb.fn.sum<number>("issue_tags.times_seen").as("events"),
          eb.fn.min<number>("issue_tags.first_seen").as("first"),
          eb.fn.max<number>("issue_tags.last_seen").as("last"),
        ])
        .where("issue_tags.key", "=", "release")
        .where("issue_tags.value", "in", versions)
        .where("issues.project_id", "=", projectId)
        .groupBy("issue_tags.value")
        .execute();
      for (const row of seen) {
        const stats = out.get(row.value);
        if (stats) Object.assign(stats, { events: Number(row.events), firstSeen: Number(row.first), lastSeen: Number(row.last) });
      }
    }
    const introduced = await this.db
      .selectFrom("issues")
      .select((eb) => ["first_release", eb.fn.countAll<number>().as("n")])
      .where("project_id", "=", projectId)
      .where("first_release", "in", versions)
      .where("merged_into_id", "is", null)
      .$if(environment !== undefined, (q) => q.where(({ exists, selectFrom }) => exists(seenIn(selectFrom, environment!))))
      .groupBy("first_release")
      .execute();
    for (const row of introduced) {
      const stats = row.first_release === null ? undefined : out.get(row.first_release);
      if (stats) stats.newIssues = Number(row.n);
    }
    return out;
  }

  async newIssues(projectId: number, version: string, limit: number, environment?: string) {
    const rows = await this.db
      .selectFrom("issues")
      .select(["id", "short_number", "title", "times_seen", "last_seen"])
      .where("project_id", "=", projectId)
      .where("first_release", "=", version)
      .where("merged_into_id", "is", null)
      .$if(environment !== undefined, (q) => q.where(({ exists, selectFrom }) => exists(seenIn(selectFrom, environment!))))
      .orderBy("times_seen", "desc")
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, shortNumber: r.short_number, title: r.title, timesSeen: r.times_seen, lastSeen: r.last_seen }));
  }

  async noteSeen(projectId: number, version: string, now: number): Promise<void> {
    const project = await this.db.selectFrom("projects").select("organization_id").where("id", "=", projectId).executeTakeFirst();
    if (!project) return;
    await this.upsertRelease(
      project.organization_id,
      { version, ref: null, url: null, dateStarted: null, dateReleased: null },
      [projectId],
      now,
    );
  }

  async release(organizationId: number, version: string): Promise<ReleaseRecord | null> {
    const row = await this.db
      .selectFrom("releases")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("version", "=", version)
      .executeTakeFirst();
    return row ? ((await this.records([row]))[0] ?? null) : null;
  }

  async releases(organizationId: number, filter: { projectIds: readonly number[] | null; limit: number }): Promise<ReleaseRecord[]> {
    let q = this.db.selectFrom("releases").selectAll().where("organization_id", "=", organizationId);
    if (filter.projectIds !== null) {
      const ids = filter.projectIds;
      if (ids.length === 0) return [];
      q = q.where("id", "in", (eb) => eb.selectFrom("release_projects").select("release_id").where("project_id", "in", ids));
    }
    const rows = await q.orderBy("date_created", "desc").orderBy("id", "desc").limit(filter.limit).execute();
    return this.records(rows);
  }

  async updateRelease(releaseId: number, change: ReleaseChange): Promise<void> {
    const set: { ref?: string | null; url?: string | null; date_released?: number | null; status?: string } = {};
    if (change.ref !== undefined) set.ref = change.ref;
    if (change.url !== undefined) set.url = change.url;
    if (change.dateReleased !== undefined) set.date_released = change.dateReleased;
    if (change.status !== undefined) set.status = change.status;
    await this.db.transaction().execute(async (tx) => {
      if (Object.keys(set).length > 0) await tx.updateTable("releases").set(set).where("id", "=", releaseId).execute();
      for (const projectId of change.projectIds ?? []) {
        await tx
          .insertInto("release_projects")
          .values({ release_id: releaseId, project_id: projectId })
          .onConflict((oc) => oc.columns(["release_id", "project_id"]).doNothing())
          .execute();
      }
    });
  }

  releaseReferences(projectIds: readonly number[], version: string): Promise<ReleaseReferences> {
    return releaseReferences(this.db, projectIds, version);
  }

  async deleteRelease(releaseId: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const table of ["release_projects", "deploys", "release_commits", "release_head_commits"] as const) {
        await tx.deleteFrom(table).where("release_id", "=", releaseId).execute();
      }
      await tx.deleteFrom("releases").where("id", "=", releaseId).execute();
    });
  }

  async addDeploy(releaseId: number, deploy: Omit<DeployRecord, "id">): Promise<DeployRecord> {
    const row = await this.db
      .insertInto("deploys")
      .values({
        release_id: releaseId,
        environment: deploy.environment,
        name: deploy.name,
        url: deploy.url,
        date_started: deploy.dateStarted,
        date_finished: deploy.dateFinished,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return deployRecord(row);
  }

  async deploys(releaseId: number): Promise<DeployRecord[]> {
    const rows = await this.db.selectFrom("deploys").selectAll().where("release_id", "=", releaseId).orderBy("id", "desc").execute();
    return rows.map(deployRecord);
  }

  async repositories(organizationId: number): Promise<RepositoryRecord[]> {
    const rows = await this.db
      .selectFrom("repositories")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .orderBy("name")
      .execute();
    return rows.map(repositoryRecord);
  }

  async insertRepository(
    organizationId: number,
    repo: { name: string; url: string | null; provider: string | null },
    now: number,
  ): Promise<RepositoryRecord | null> {
    const row = await this.db
      .insertInto("repositories")
      .values({ organization_id: organizationId, name: repo.name, url: repo.url, provider: repo.provider, date_created: now })
      .onConflict((oc) => oc.columns(["organization_id", "name"]).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? repositoryRecord(row) : null;
  }

  async setCommits(releaseId: number, commits: readonly NewCommit[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("release_commits").where("release_id", "=", releaseId).execute();
      const seen = new Set<string>();
      let position = 0;
      for (const c of commits) {
        const id = `${c.repositoryId}:${c.key}`;
        if (seen.has(id)) continue;
        seen.add(id);
        await tx
          .insertInto("release_commits")
          .values({
            release_id: releaseId,
            repository_id: c.repositoryId,
            commit_key: c.key,
            position: position++,
            message: c.message,
            author_name: c.authorName,
            author_email: c.authorEmail,
            timestamp: c.timestamp,
          })
          .execute();
      }
    });
  }

  async setHeadCommits(
    releaseId: number,
    heads: readonly { repositoryId: number; key: string; previousKey: string | null }[],
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom("release_head_commits").where("release_id", "=", releaseId).execute();
      for (const h of heads) {
        await tx
          .insertInto("release_head_commits")
          .values({ release_id: releaseId, repository_id: h.repositoryId, commit_key: h.key, previous_commit_key: h.previousKey })
          .onConflict((oc) =>
            oc.columns(["release_id", "repository_id"]).doUpdateSet({ commit_key: h.key, previous_commit_key: h.previousKey }),
          )
          .execute();
      }
    });
  }

  async commits(releaseId: number): Promise<CommitRecord[]> {
    const rows = await this.db
      .selectFrom("release_commits as c")
      .innerJoin("repositories as r", "r.id", "c.repository_id")
      .select(["c.repository_id", "r.name", "c.commit_key", "c.message", "c.author_name", "c.author_email", "c.timestamp"])
      .where("c.release_id", "=", releaseId)
      .orderBy("c.position")
      .execute();
    return rows.map((c) => ({
      repositoryId: c.repository_id,
      repositoryName: c.name,
      key: c.commit_key,
      message: c.message,
      authorName: c.author_name,
      authorEmail: c.author_email,
      timestamp: c.timestamp,
    }));
  }

  async previousWithCommits(organizationId: number, release: ReleaseRecord): Promise<ReleaseRecord | null> {
    const row = await this.db
      .selectFrom("releases")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("id", "<>", release.id)
      .where((eb) =>
        eb.or([
          eb("date_created", "<", release.dateCreated),
          eb.and([eb("date_created", "=", release.dateCreated), eb("id", "<", release.id)]),
        ]),
      )
      .where("id", "in", (eb) => eb.selectFrom("release_commits").select("release_id"))
      .orderBy("date_created", "desc")
      .orderBy("id", "desc")
      .executeTakeFirst();
    return row ? ((await this.records([row]))[0] ?? null) : null;
  }
}
