import { createUser } from "../../src/core/accounts/create-user";
import { KyselyOrganizationStore } from "../../src/db/organization-store";
import { DIALECTS, openTestStore, testCtx } from "../support/stores";
import { organizationStoreContract } from "./organizations";

for (const dialect of DIALECTS) {
  organizationStoreContract(`KyselyOrganizationStore on ${dialect}`, async () => {
    const db = await openTestStore(dialect);
    await createUser({ ctx: testCtx(db), input: { email: "owner@example.com", password: "password-123" } });
    return { store: new KyselyOrganizationStore(db.db), ownerEmail: "owner@example.com", cleanup: () => db.cleanup() };
  });
}
