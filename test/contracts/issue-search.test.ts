import { KyselyIssueSearch } from "../../src/db/issue-search";
import { seedIssues } from "../support/issue-seeds";
import { DIALECTS } from "../support/stores";
import { issueSearchContract } from "./issue-search";
import { openSeededStore } from "./seeded-store";

for (const dialect of DIALECTS)
  issueSearchContract(`Kysely on ${dialect}`, async () => {
    const { store, projectId, otherProjectId } = await openSeededStore(dialect);
    const db = store.db;
    return {
      search: new KyselyIssueSearch(db, dialect),
      projects: [projectId, otherProjectId],
      seed: (project, seeds) =>
        seedIssues(
          db,
          project,
          seeds.map(({ mergedInto, ...s }) => (mergedInto === undefined ? s : { ...s, merged_into_id: mergedInto, substatus: "merged" })),
        ),
      async remove(ids) {
        if (ids.length > 0)
          await db
            .deleteFrom("issues")
            .where("id", "in", [...ids])
            .execute();
      },
      cleanup: () => store.cleanup(),
    };
  });
