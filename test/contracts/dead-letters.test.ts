import { KyselyDeadLetterStore } from "../../src/db/dead-letter-store";
import { DIALECTS } from "../support/stores";
import { deadLetterStoreContract } from "./dead-letters";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  deadLetterStoreContract(`Kysely on ${dialect}`, async () => {
    const { store, organizationId, projectId, otherOrganizationId } = await openSeededStore(dialect);
    return {
      store: new KyselyDeadLetterStore(store.db, store.queue, store.dialect),
      organizationId,
      projectId,
      otherOrganizationId,
      queued: async () =>
        (await store.queue.selectFrom("ingest_queue").selectAll().orderBy("id").execute()).map((r) => ({
          projectId: r.project_id,
          keyId: r.key_id,
          receivedAt: r.received_at,
          endpoint: r.endpoint,
          body: r.body,
        })),
      counted: async (reason) =>
        (await store.db.selectFrom("outcomes").select("quantity").where("reason", "=", reason).execute()).reduce(
          (n, r) => n + r.quantity,
          0,
        ),
      cleanup: () => store.cleanup(),
    };
  });
