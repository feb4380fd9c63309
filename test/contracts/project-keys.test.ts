import { describe } from "vitest";
import { KyselyProjectKeyStore } from "../../src/db/project-key-store";
import { DIALECTS, openTestStore } from "../support/stores";
import { projectKeyStoreContract } from "./project-keys";
import { seedOrganization, seedProject } from "./seed-rows";

describe.each(DIALECTS)("on %s", (dialect) => {
  projectKeyStoreContract("Kysely", async () => {
    const db = await openTestStore(dialect);
    const orgId = await seedOrganization(db.db, "keys");
    let n = 0;
    return {
      store: new KyselyProjectKeyStore(db.db),
      project: () => seedProject(db.db, orgId, `p${++n}`),
      cleanup: () => db.cleanup(),
    };
  });
});
