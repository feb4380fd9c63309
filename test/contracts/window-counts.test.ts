import { addWindowCounts, KyselyWindowCounts } from "../../src/db/window-counts";
import { seedIssues } from "../support/issue-seeds";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore } from "../support/stores";
import { windowCountsContract } from "./window-counts";

const HOUR = 3_600_000;

for (const dialect of DIALECTS)
  windowCountsContract(`Kysely on ${dialect}`, async () => {
    const store = await openTestStore(dialect);
    const db = store.db;
    const { projectId } = await seedOrgWorld(db);
    return {
      counts: new KyselyWindowCounts(db),
      async issue() {
        const [id] = await seedIssues(db, projectId, [{}]);
        if (id === undefined) throw new Error("no issue seeded");
        return id;
      },
      async add(samples) {
        // Events per hour are the digest's hourly counts (src/db/issue-store.ts), written beside the buckets.
        await addWindowCounts(
          db,
          samples.map((s) => ({ ...s, projectId, environment: null, level: "error" })),
        );
        for (const s of samples) {
          const hour = Math.floor(s.at / HOUR) * HOUR;
          await db
            .insertInto("issue_hourly")
            .values({ issue_id: s.issueId, hour, count: 1 })
            .onConflict((oc) => oc.columns(["issue_id", "hour"]).doUpdateSet((eb) => ({ count: eb("issue_hourly.count", "+", 1) })))
            .execute();
        }
      },
      cleanup: () => store.cleanup(),
    };
  });
