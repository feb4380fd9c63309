import { writeIssueChanges } from "../../src/db/issue-changes";
import { KyselyOutboxStore } from "../../src/db/outbox-store";
import { seedIssues } from "../support/issue-seeds";
import { DIALECTS } from "../support/stores";
import { outboxStoreContract } from "./outbox";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  outboxStoreContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId } = await openSeededStore(dialect);
    const [issueId = 0] = await seedIssues(store.db, projectId, [{}]);
    return {
      outbox: new KyselyOutboxStore(store.db, store.dialect),
      projectId,
      issueId,
      write: (count, from) =>
        store.db.transaction().execute((trx) =>
          writeIssueChanges(
            trx,
            Array.from({ length: count }, (_, k) => ({
              projectId,
              issueId,
              kind: "commented" as const,
              data: { i: from + k },
              userId: null,
              at: 1000 + from + k,
            })),
          ),
        ),
      activity: async (type) =>
        (await store.db.selectFrom("issue_activity").select("data").where("type", "=", type).orderBy("id").execute()).map(
          (r) => JSON.parse(r.data) as unknown,
        ),
      cleanup: () => store.cleanup(),
    };
  });
