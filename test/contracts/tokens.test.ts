import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { KyselyTokenStore } from "../../src/db/token-store";
import { DIALECTS, openTestStore, testCtx } from "../support/stores";
import { tokenStoreContract } from "./tokens";

for (const dialect of DIALECTS) {
  tokenStoreContract(`KyselyTokenStore on ${dialect}`, async () => {
    const db = await openTestStore(dialect);
    const ctx = testCtx(db);
    const ada = await createUser({ ctx, input: { email: "ada@example.com", password: "password-123" } });
    const grace = await createUser({ ctx, input: { email: "grace@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "acme" } });
    return { store: new KyselyTokenStore(db.db), users: [ada, grace], organizationId: org.id, cleanup: () => db.cleanup() };
  });
}
