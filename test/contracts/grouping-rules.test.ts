import { KyselyGroupingRuleStore } from "../../src/db/grouping-rules-store";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore } from "../support/stores";
import { groupingRulesContract } from "./grouping-rules";

for (const dialect of DIALECTS)
  groupingRulesContract(`Kysely on ${dialect}`, async () => {
    const store = await openTestStore(dialect);
    const { projectId, otherProjectId } = await seedOrgWorld(store.db);
    return { rules: new KyselyGroupingRuleStore(store.db), projectIds: [projectId, otherProjectId], cleanup: () => store.cleanup() };
  });
