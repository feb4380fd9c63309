import { KyselyIssueReader } from "../../src/db/issue-reader";
import { seedIssues } from "../support/issue-seeds";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore } from "../support/stores";
import { issueReaderContract } from "./issue-reader";

for (const dialect of DIALECTS)
  issueReaderContract(`Kysely on ${dialect}`, async () => {
    const store = await openTestStore(dialect);
    const db = store.db;
    return {
      ...(await seedOrgWorld(db)),
      reader: new KyselyIssueReader(db),
      async seed(s) {
        const [id] = await seedIssues(db, s.projectId, [{ last_seen: s.lastSeen ?? 0 }]);
        if (id === undefined) throw new Error("no issue seeded");
        const tags = (s.tags ?? []).map(([key, value, times_seen, seen = 0]) => ({
          issue_id: id,
          key,
          value,
          times_seen,
          first_seen: seen,
          last_seen: seen,
        }));
        if (tags.length) await db.insertInto("issue_tags").values(tags).execute();
        for (const hash of s.hashes ?? [])
          await db
            .insertInto("issue_hashes")
            .values({ project_id: s.projectId, hash, issue_id: id, grouping_config: "", merged_from: null })
            .execute();
        const row = await db.selectFrom("issues").select("short_number").where("id", "=", id).executeTakeFirstOrThrow();
        return { id, shortNumber: row.short_number };
      },
      async addHour(issue_id, hour, count) {
        await db.insertInto("issue_hourly").values({ issue_id, hour, count }).execute();
      },
      async addActivity(issue_id, e) {
        await db
          .insertInto("issue_activity")
          .values({ issue_id, type: e.type, data: JSON.stringify(e.data), user_id: e.userId, created_at: e.at })
          .execute();
      },
      async bookmark(issue_id, user_id) {
        await db.insertInto("issue_bookmarks").values({ issue_id, user_id }).execute();
      },
      cleanup: () => store.cleanup(),
    };
  });
