import { describe } from "vitest";
import { KyselyOutcomeStore } from "../../src/db/outcome-store";
import { DIALECTS, openTestStore } from "../support/stores";
import { outcomeStoreContract } from "./outcomes";
import { seedOrganization, seedProject } from "./seed-rows";

describe.each(DIALECTS)("on %s", (dialect) => {
  outcomeStoreContract("Kysely", async () => {
    const db = await openTestStore(dialect);
    const orgId = await seedOrganization(db.db, "outcomes");
    const projects: [number, number] = [await seedProject(db.db, orgId, "web"), await seedProject(db.db, orgId, "api")];
    return { store: new KyselyOutcomeStore(db.db), projects, cleanup: () => db.cleanup() };
  });
});
