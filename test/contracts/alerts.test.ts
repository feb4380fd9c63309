import { afterAll, beforeAll, describe } from "vitest";
import { KyselyAlertStore } from "../../src/db/alerts-store";
import { KyselyMetricAlertStore } from "../../src/db/metric-alerts-store";
import { seedIssues, seedUser } from "../support/issue-seeds";
import { DIALECTS } from "../support/stores";
import { alertStoreContract } from "./alerts";
import { metricAlertStoreContract } from "./metric-alerts";
import { seedProject } from "./seed-rows";
import { openSeededStore, type SeededStore } from "./seeded-store";

// Issue and metric alerts in one database per dialect: each kind has its own tables.
describe.each(DIALECTS)("alert rules on %s", (dialect) => {
  let s: SeededStore;
  const noCleanup = async () => {};

  beforeAll(async () => {
    s = await openSeededStore(dialect);
  });
  afterAll(() => s.store.cleanup());

  alertStoreContract("issue alerts", async () => ({
    store: new KyselyAlertStore(s.store.db, dialect),
    projects: [s.projectId, s.otherProjectId],
    async issue(project, title) {
      const [id] = await seedIssues(s.store.db, project, [{ title }]);
      if (id === undefined) throw new Error("no issue seeded");
      return id;
    },
    cleanup: noCleanup,
  }));

  metricAlertStoreContract("metric alerts", async () => {
    const db = s.store.db;
    const web = await db.selectFrom("projects").select(["id", "slug"]).where("id", "=", s.projectId).executeTakeFirstOrThrow();
    const api = { id: await seedProject(db, s.organizationId, "api"), slug: "api" };
    return {
      store: new KyselyMetricAlertStore(db, dialect),
      organizations: [s.organizationId, s.otherOrganizationId],
      projects: [web, api],
      userId: await seedUser(db, "metric@example.com"),
      cleanup: noCleanup,
    };
  });
});
