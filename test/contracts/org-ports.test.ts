import { afterAll, beforeAll, describe } from "vitest";
import type { Kysely } from "kysely";
import type { Role } from "../../src/core/orgs/roles";
import { KyselyAuditLog } from "../../src/db/audit-store";
import { KyselyDirectory } from "../../src/db/directory";
import type { DB } from "../../src/db/schema";
import { KyselySsoStore } from "../../src/db/sso-store";
import { KyselyTwoFactorStore } from "../../src/db/two-factor-store";
import { KyselyUserNotificationStore } from "../../src/db/user-notifications-store";
import { seedIssues, seedUser } from "../support/issue-seeds";
import { seedOrgWorld } from "../support/org-world";
import { DIALECTS, openTestStore, type TestStore } from "../support/stores";
import { auditLogContract } from "./audit";
import { directoryContract } from "./directory";
import { ssoStoreContract } from "./sso";
import { twoFactorStoreContract } from "./two-factor";
import { userNotificationStoreContract } from "./user-notifications";

// The org-side ports share one database per dialect (a PostgreSQL database costs seconds to
// migrate); each suite seeds a world of its own under its own prefix.
const addMembership = async (db: Kysely<DB>, organization_id: number, user_id: number, role: Role) => {
  await db.insertInto("memberships").values({ organization_id, user_id, role, created_at: 0 }).execute();
};
const noCleanup = async () => {};
let tokenNumber = 0;
const addIssue = async (db: Kysely<DB>, projectId: number, assignee: { userId: number | null; teamId: number | null }) => {
  const [id = 0] = await seedIssues(db, projectId, [{ assignee_id: assignee.userId, assignee_team_id: assignee.teamId }]);
  return id;
};

for (const dialect of DIALECTS) {
  describe(`Kysely on ${dialect}`, () => {
    let store: TestStore;
    beforeAll(async () => {
      store = await openTestStore(dialect);
    });
    afterAll(() => store.cleanup());

    auditLogContract("KyselyAuditLog", async () => ({
      store: new KyselyAuditLog(store.db),
      world: await seedOrgWorld(store.db, "audit-"),
      cleanup: noCleanup,
    }));

    twoFactorStoreContract("KyselyTwoFactorStore", async () => ({
      store: new KyselyTwoFactorStore(store.db),
      world: await seedOrgWorld(store.db, "2fa-"),
      orgRequires: async (id) =>
        (await store.db.selectFrom("organizations").select("require_2fa").where("id", "=", id).executeTakeFirstOrThrow()).require_2fa === 1,
      cleanup: noCleanup,
    }));

    ssoStoreContract("KyselySsoStore", async () => ({
      store: new KyselySsoStore(store.db),
      world: await seedOrgWorld(store.db, "sso-"),
      orgSlug: "sso-acme",
      addMembership: (orgId, userId, role) => addMembership(store.db, orgId, userId, role),
      cleanup: noCleanup,
    }));

    userNotificationStoreContract("KyselyUserNotificationStore", async () => {
      const { db } = store;
      const world = await seedOrgWorld(db, "notify-");
      const teammateId = await seedUser(db, "notify-mate@example.com");
      await addMembership(db, world.orgId, teammateId, "member");
      await db
        .insertInto("team_members")
        .values({ team_id: world.teamId, user_id: teammateId, role: "contributor", created_at: 0 })
        .execute();
      return {
        store: new KyselyUserNotificationStore(db),
        world,
        teammateId,
        addIssue: (projectId, assignee) => addIssue(db, projectId, assignee),
        async addChange(issue_id, seq, kind, user_id, data) {
          const project = await db.selectFrom("issues").select("project_id").where("id", "=", issue_id).executeTakeFirstOrThrow();
          await db
            .insertInto("issue_changes")
            .values({ seq, project_id: project.project_id, issue_id, kind, data: JSON.stringify(data), user_id, created_at: 0 })
            .execute();
        },
        async addBookmark(issue_id, user_id) {
          await db.insertInto("issue_bookmarks").values({ issue_id, user_id }).execute();
        },
        cleanup: noCleanup,
      };
    });

    directoryContract("KyselyDirectory", async () => {
      const { db } = store;
      const world = await seedOrgWorld(db, "dir-");
      const team = { organization_id: world.orgId, slug: "dir-everyone", name: "Everyone", is_default: 1, created_at: 0 };
      const defaultTeam = await db.insertInto("teams").values(team).returning("id").executeTakeFirstOrThrow();
      return {
        store: new KyselyDirectory(db, store.dialect, store.queue),
        world,
        orgSlug: "dir-acme",
        defaultTeamId: defaultTeam.id,
        addIssue: (projectId, assignee) => addIssue(db, projectId, assignee),
        async assignment(id) {
          const row = await db
            .selectFrom("issues")
            .select(["assignee_id", "assignee_team_id"])
            .where("id", "=", id)
            .executeTakeFirstOrThrow();
          return { userId: row.assignee_id, teamId: row.assignee_team_id };
        },
        async addToken(user_id, organization_id) {
          const token = { user_id, organization_id, name: "t", token_hash: `dir-${++tokenNumber}`, token_prefix: "tlt_", created_at: 0 };
          return (await db.insertInto("api_tokens").values(token).returning("id").executeTakeFirstOrThrow()).id;
        },
        revokedAt: async (id) =>
          (await db.selectFrom("api_tokens").select("revoked_at").where("id", "=", id).executeTakeFirstOrThrow()).revoked_at,
        projectExists: async (id) => (await db.selectFrom("projects").select("id").where("id", "=", id).executeTakeFirst()) !== undefined,
        cleanup: noCleanup,
      };
    });
  });
}
