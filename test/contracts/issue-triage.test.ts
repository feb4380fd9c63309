import { KyselyIssueTriage } from "../../src/db/issue-triage-store";
import { KyselyReleaseOrder } from "../../src/db/release-order";
import { seedIssues } from "../support/issue-seeds";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore } from "../support/stores";
import { issueTriageContract } from "./issue-triage";

for (const dialect of DIALECTS)
  issueTriageContract(`Kysely on ${dialect}`, async () => {
    const store = await openTestStore(dialect);
    const db = store.db;
    const world = await seedOrgWorld(db);
    const versions = ["1.0.0", "1.1.0", "2.0.0"];
    for (const [i, version] of versions.entries()) {
      const release = await db
        .insertInto("releases")
        .values({ organization_id: world.orgId, version, ref: null, url: null, date_created: i, date_started: null, date_released: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("release_projects").values({ release_id: release.id, project_id: world.projectId }).execute();
    }
    return {
      ...world,
      triage: new KyselyIssueTriage(db, new KyselyReleaseOrder(db)),
      versions,
      async seed(s) {
        const [id] = await seedIssues(db, s.projectId, [
          {
            first_seen: s.firstSeen,
            last_seen: s.firstSeen,
            times_seen: s.timesSeen ?? 1,
            ...(s.mergedInto !== undefined ? { merged_into_id: s.mergedInto, status: "resolved", substatus: "merged" } : {}),
            tags: s.tags ?? [],
          },
        ]);
        if (id === undefined) throw new Error("no issue seeded");
        for (const hash of s.hashes ?? [])
          await db
            .insertInto("issue_hashes")
            .values({ project_id: s.projectId, hash, issue_id: id, grouping_config: "", merged_from: null })
            .execute();
        return id;
      },
      issue: (id) => db.selectFrom("issues").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
      async changes(issueId) {
        const rows = await db.selectFrom("issue_changes").selectAll().where("issue_id", "=", issueId).orderBy("seq").execute();
        return rows.map((r) => ({ kind: r.kind, data: JSON.parse(r.data) as Record<string, unknown>, userId: r.user_id }));
      },
      async bookmarked(issueId, userId) {
        const row = await db
          .selectFrom("issue_bookmarks")
          .select("issue_id")
          .where("issue_id", "=", issueId)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        return row !== undefined;
      },
      async tags(issueId) {
        const rows = await db
          .selectFrom("issue_tags")
          .selectAll()
          .where("issue_id", "=", issueId)
          .orderBy("key")
          .orderBy("value")
          .execute();
        return rows.map((r): [string, string, number] => [r.key, r.value, r.times_seen]);
      },
      async hashes(issueId) {
        return (await db.selectFrom("issue_hashes").select("hash").where("issue_id", "=", issueId).orderBy("hash").execute()).map(
          (r) => r.hash,
        );
      },
      cleanup: () => store.cleanup(),
    };
  });
