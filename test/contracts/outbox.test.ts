import { writeIssueChanges } from "../../src/core/outbox/changes";
import { KyselyOutboxStore } from "../../src/db/outbox-store";
import { DIALECTS } from "../support/stores";
import { outboxStoreContract } from "./outbox";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  outboxStoreContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId } = await openSeededStore(dialect);
    const issue = await store.db
      .insertInto("issues")
      .values({
        project_id: projectId,
        short_number: 1,
        type: "error",
        title: "E",
        culprit: "",
        level: "error",
        metadata: "{}",
        status: "unresolved",
        substatus: "ongoing",
        first_seen: 0,
        last_seen: 0,
        times_seen: 1,
        user_count: 0,
        resolved_next_release: 0,
        grouping_config: "test",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return {
      outbox: new KyselyOutboxStore(store.db, store.dialect),
      projectId,
      issueId: issue.id,
      write: (count, from) =>
        store.db.transaction().execute((trx) =>
          writeIssueChanges(
            trx,
            Array.from({ length: count }, (_, k) => ({
              projectId,
              issueId: issue.id,
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
