import { KyselyAccountStore } from "../../src/db/account-store";
import { DIALECTS, openTestStore } from "../support/stores";
import { accountStoreContract } from "./accounts";

for (const dialect of DIALECTS) {
  accountStoreContract(`KyselyAccountStore on ${dialect}`, async () => {
    const db = await openTestStore(dialect);
    return { store: new KyselyAccountStore(db.db, db.dialect), cleanup: () => db.cleanup() };
  });
}
