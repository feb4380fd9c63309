import { KyselyIngestQueue } from "../../src/db/ingest-queue";
import { DIALECTS } from "../support/stores";
import { ingestQueueContract } from "./ingest-queue";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  ingestQueueContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId } = await openSeededStore(dialect);
    return {
      // As createCtx builds it: with COPY on PostgreSQL.
      queue: new KyselyIngestQueue(store.queue, store.dialect, store.appendToQueue),
      projectId,
      queued: async () =>
        (await store.queue.selectFrom("ingest_queue").selectAll().orderBy("id").execute()).map((r) => ({
          id: r.id,
          receivedAt: r.received_at,
          endpoint: r.endpoint,
          body: r.body,
        })),
      cleanup: () => store.cleanup(),
    };
  });
