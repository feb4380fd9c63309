import type { Kysely } from "kysely";
import type { DB } from "../../src/db/schema";
import { seedUser } from "./issue-seeds";

/** Rows that storage contract suites start from: two organizations, their projects, a member and an outsider, a team in each. */
export interface OrgWorld {
  orgId: number;
  projectId: number;
  projectSlug: string;
  otherProjectId: number;
  memberId: number;
  outsiderId: number;
  teamId: number;
  teamSlug: string;
  otherOrgId: number;
  otherOrgProjectId: number;
  otherOrgTeamId: number;
}

/**
 * Inserts the world straight into the tables (no core action), for suites that test one port;
 * `prefix` sets slugs and emails apart, so that several suites can share one database.
 */
export async function seedOrgWorld(db: Kysely<DB>, prefix = ""): Promise<OrgWorld> {
  const org = async (slug: string) =>
    (
      await db
        .insertInto("organizations")
        .values({ slug, name: slug, is_internal: 0, created_at: 0 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  const project = async (organization_id: number, slug: string) =>
    (
      await db
        .insertInto("projects")
        .values({ organization_id, slug, name: slug, platform: "python", created_at: 0 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  const team = async (organization_id: number, slug: string) =>
    (await db.insertInto("teams").values({ organization_id, slug, name: slug, created_at: 0 }).returning("id").executeTakeFirstOrThrow())
      .id;
  const orgId = await org(`${prefix}acme`);
  const otherOrgId = await org(`${prefix}other`);
  const memberId = await seedUser(db, `${prefix}member@example.com`);
  await db.insertInto("memberships").values({ organization_id: orgId, user_id: memberId, role: "member", created_at: 0 }).execute();
  return {
    orgId,
    projectId: await project(orgId, `${prefix}web`),
    projectSlug: `${prefix}web`,
    otherProjectId: await project(orgId, `${prefix}api`),
    memberId,
    outsiderId: await seedUser(db, `${prefix}outsider@example.com`),
    teamId: await team(orgId, `${prefix}crew`),
    teamSlug: `${prefix}crew`,
    otherOrgId,
    otherOrgProjectId: await project(otherOrgId, `${prefix}theirs`),
    otherOrgTeamId: await team(otherOrgId, `${prefix}their-crew`),
  };
}
