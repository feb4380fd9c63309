import { KyselyTelemetryStore } from "../../src/db/telemetry";
import { MemoryTelemetryStore } from "../support/memory-telemetry";
import { DIALECTS, openTestStore } from "../support/stores";
import { seedOrganization, seedProject } from "./seed-rows";
import { telemetryContract } from "./telemetry";

telemetryContract("in memory", async () => {
  const store = new MemoryTelemetryStore();
  const { stored } = store;
  return {
    write: (batch) => store.write(batch),
    projectId: 1,
    eventHashes: async (projectId) => stored.events.filter((e) => e.projectId === projectId).map((e) => e.hashes[0] ?? null),
    logBodies: async (projectId) => stored.logs.filter((l) => l.projectId === projectId).map((l) => l.body),
    sessionQuantities: async (projectId, status) =>
      stored.sessions.filter((s) => s.projectId === projectId && s.status === status).map((s) => s.quantity),
    cleanup: async () => {},
  };
});

for (const dialect of DIALECTS)
  telemetryContract(`Kysely on ${dialect}`, async () => {
    // As the digest worker connects (src/server/digest-worker.ts).
    const store = await openTestStore(dialect, { digest: true });
    const db = store.db;
    const projectId = await seedProject(db, await seedOrganization(db, "telemetry"), "p");
    return {
      write: (batch) => db.transaction().execute((trx) => new KyselyTelemetryStore(trx).write(batch)),
      projectId,
      async eventHashes(project) {
        const rows = await db.selectFrom("events").select("grouping_hash").where("project_id", "=", project).execute();
        return rows.map((r) => r.grouping_hash);
      },
      async logBodies(project) {
        const rows = await db.selectFrom("logs").select("body").where("project_id", "=", project).execute();
        return rows.map((r) => r.body);
      },
      async sessionQuantities(project, status) {
        const rows = await db
          .selectFrom("session_counts")
          .select("quantity")
          .where("project_id", "=", project)
          .where("status", "=", status)
          .execute();
        return rows.map((r) => Number(r.quantity));
      },
      cleanup: () => store.cleanup(),
    };
  });
