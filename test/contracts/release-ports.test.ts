import { afterAll, beforeAll, describe } from "vitest";
import type { Kysely } from "kysely";
import { encodePayload } from "../../src/core/storage/payload";
import { KyselyArtifactStore } from "../../src/db/artifact-store";
import { KyselyReleaseHealthStore } from "../../src/db/release-health-store";
import { KyselyReleaseStore } from "../../src/db/release-store";
import type { DB } from "../../src/db/schema";
import { seedIssues } from "../support/issue-seeds";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore, type TestStore } from "../support/stores";
import { artifactStoreContract } from "./artifacts";
import { releaseHealthStoreContract } from "./release-health";
import { releaseStoreContract } from "./releases";

// The release-side ports share one database per dialect (a PostgreSQL database costs seconds to
// migrate); each suite seeds a world of its own under its own prefix.
let eventNumber = 0;
const addEvent = async (db: Kysely<DB>, project_id: number, release: string, environment: string, timestamp: number) => {
  await db
    .insertInto("events")
    .values({
      project_id,
      issue_id: null,
      grouping_hash: null,
      event_id: String(++eventNumber).padStart(32, "0"),
      type: "event",
      timestamp: timestamp / 1000,
      received_at: timestamp,
      level: "error",
      title: "E",
      release,
      environment,
      trace_id: null,
      data: encodePayload("{}"),
    })
    .execute();
};
const noCleanup = async () => {};

for (const dialect of DIALECTS) {
  describe(`Kysely on ${dialect}`, () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await openTestStore(dialect);
    });
    afterAll(() => store.cleanup());

    releaseStoreContract("KyselyReleaseStore", async () => {
      const { db } = store;
      return {
        store: new KyselyReleaseStore(db),
        world: await seedOrgWorld(db, "rel-"),
        async addIssue(projectId, issue) {
          const tags = issue.tags.map((t) => ({
            key: t.key,
            value: t.value,
            times_seen: t.timesSeen,
            first_seen: t.firstSeen,
            last_seen: t.lastSeen,
          }));
          const [id = 0] = await seedIssues(db, projectId, [
            {
              title: issue.title,
              first_release: issue.firstRelease,
              times_seen: issue.timesSeen,
              merged_into_id: issue.mergedInto ?? null,
            },
          ]);
          if (tags.length > 0)
            await db
              .insertInto("issue_tags")
              .values(tags.map((t) => ({ issue_id: id, ...t })))
              .execute();
          return id;
        },
        addEvent: (projectId, release, environment, timestamp) => addEvent(db, projectId, release, environment, timestamp),
        async addSessions(project_id, release) {
          await db
            .insertInto("session_counts")
            .values({ project_id, hour: 0, release, environment: "", status: "started", quantity: 1 })
            .execute();
        },
        async headCommits(releaseId) {
          const rows = await db
            .selectFrom("release_head_commits")
            .selectAll()
            .where("release_id", "=", releaseId)
            .orderBy("repository_id")
            .execute();
          return rows.map((r) => ({ repositoryId: r.repository_id, key: r.commit_key, previousKey: r.previous_commit_key }));
        },
        cleanup: noCleanup,
      };
    });

    releaseHealthStoreContract("KyselyReleaseHealthStore", async () => {
      const { db } = store;
      return {
        store: new KyselyReleaseHealthStore(db),
        world: await seedOrgWorld(db, "health-"),
        async addCounts(project_id, rows) {
          await db
            .insertInto("session_counts")
            .values(rows.map((r) => ({ project_id, ...r })))
            .execute();
        },
        async addMembers(project_id, rows) {
          await db
            .insertInto("session_distinct")
            .values(rows.map((r) => ({ project_id, ...r })))
            .execute();
        },
        async addEvent(projectId, release, environment) {
          await addEvent(db, projectId, release, environment, 1_000);
          await seedIssues(db, projectId, [{ tags: [["environment", environment]] }]);
        },
        async addDeploy(projectId, version, environment) {
          const project = await db.selectFrom("projects").select("organization_id").where("id", "=", projectId).executeTakeFirstOrThrow();
          const release = await db
            .insertInto("releases")
            .values({
              organization_id: project.organization_id,
              version,
              ref: null,
              url: null,
              date_created: 0,
              date_started: null,
              date_released: null,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          await db.insertInto("release_projects").values({ release_id: release.id, project_id: projectId }).execute();
          await db
            .insertInto("deploys")
            .values({ release_id: release.id, environment, name: null, url: null, date_started: null, date_finished: 0 })
            .execute();
        },
        cleanup: noCleanup,
      };
    });

    artifactStoreContract("KyselyArtifactStore", async () => ({
      store: new KyselyArtifactStore(store.db),
      world: await seedOrgWorld(store.db, "maps-"),
      cleanup: noCleanup,
    }));
  });
}
