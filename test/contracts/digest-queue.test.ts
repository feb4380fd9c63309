import { KyselyDigestQueue } from "../../src/db/digest-queue";
import { KyselyReleaseOrder } from "../../src/db/release-order";
import { queueEnvelope } from "../support/digest";
import { DIALECTS, openTestStore } from "../support/stores";
import { digestQueueContract } from "./digest-queue";
import { seedOrganization, seedProject } from "./seed-rows";

for (const dialect of DIALECTS)
  digestQueueContract(`Kysely on ${dialect}`, async () => {
    // As the digest worker connects (src/server/digest-worker.ts).
    const store = await openTestStore(dialect, { digest: true });
    const projectId = await seedProject(store.db, await seedOrganization(store.db, "queue"), "p");
    return {
      queue: new KyselyDigestQueue(store, new KyselyReleaseOrder(store.db)),
      projectId,
      enqueue: (body) => queueEnvelope(store, projectId, body),
      async deadLetters() {
        const rows = await store.db.selectFrom("dead_letters").select("body").where("project_id", "=", projectId).orderBy("id").execute();
        return rows.map((r) => Buffer.from(r.body).toString());
      },
      cleanup: () => store.cleanup(),
    };
  });
