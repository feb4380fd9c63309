import { describe } from "vitest";
import { KyselyProjectStore } from "../../src/db/project-store";
import { seedIssues } from "../support/issue-seeds";
import { DIALECTS, openTestStore } from "../support/stores";
import { projectStoreContract } from "./project-store";
import { seedOrganization } from "./seed-rows";

describe.each(DIALECTS)("on %s", (dialect) => {
  projectStoreContract("Kysely", async () => {
    const db = await openTestStore(dialect);
    return {
      store: new KyselyProjectStore(db.db),
      async organization(slug, options = { defaultTeam: true }) {
        const orgId = await seedOrganization(db.db, slug);
        if (options.defaultTeam)
          await db.db.insertInto("teams").values({ organization_id: orgId, slug, name: slug, is_default: 1, created_at: 0 }).execute();
        return orgId;
      },
      async team(orgId, slug) {
        const team = await db.db
          .insertInto("teams")
          .values({ organization_id: orgId, slug, name: slug, is_default: 0, created_at: 0 })
          .returning("id")
          .executeTakeFirstOrThrow();
        return team.id;
      },
      async teamsOf(projectId) {
        const rows = await db.db.selectFrom("project_teams").select("team_id").where("project_id", "=", projectId).execute();
        return rows.map((r) => r.team_id);
      },
      async defaultRuleNames(projectId) {
        const rows = await db.db
          .selectFrom("alert_rules")
          .select("name")
          .where("project_id", "=", projectId)
          .where("is_default", "=", 1)
          .execute();
        return rows.map((r) => r.name);
      },
      async issue(projectId, title, firstSeen) {
        const [id] = await seedIssues(db.db, projectId, [{ title, first_seen: firstSeen }]);
        if (id === undefined) throw new Error("no issue seeded");
        return id;
      },
      cleanup: () => db.cleanup(),
    };
  });
});
