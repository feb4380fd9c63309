import type { Organization, Role, User } from "../../db/schema";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { hasGlobalAccess } from "./roles";

/** An organization as one user sees it: which of its projects they reach. */
export type OrgScope = Pick<OrgAccess, "org" | "projectIds">;

export interface OrgAccess {
  org: Organization;
  /** The user's role; superusers without a membership act as owners. */
  role: Role;
  /**
   * The projects this user sees: null for all of them (open membership, or an owner or
   * manager); with open membership off, the projects of the user's teams.
   */
  projectIds: ReadonlySet<number> | null;
}

/** Organizations a user can see: their memberships, or every organization for a superuser. */
export async function listOrganizations(ctx: Ctx, user: User): Promise<OrgAccess[]> {
  if (user.is_superuser) {
    const [orgs, roles] = await Promise.all([
      ctx.db.selectFrom("organizations").selectAll().orderBy("is_internal").orderBy("slug").execute(),
      rolesOf(ctx, user.id),
    ]);
    return orgs.map((org) => ({ org, role: roles.get(org.id) ?? "owner", projectIds: null }));
  }
  const rows = await ctx.db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.organization_id")
    .selectAll("organizations")
    .select("memberships.role")
    .where("memberships.user_id", "=", user.id)
    .orderBy("organizations.slug")
    .execute();
  return Promise.all(rows.map(async ({ role, ...org }) => ({ org, role, projectIds: await visibleProjects(ctx, org, role, user.id) })));
}

async function rolesOf(ctx: Ctx, userId: number): Promise<Map<number, Role>> {
  const rows = await ctx.db.selectFrom("memberships").select(["organization_id", "role"]).where("user_id", "=", userId).execute();
  return new Map(rows.map((r) => [r.organization_id, r.role]));
}

/**
 * The organization with this slug, if the user may see it. An organization the user cannot
 * see is reported as missing, so its existence does not leak.
 */
export async function organizationFor(ctx: Ctx, user: User, slug: string): Promise<OrgAccess> {
  const org = await ctx.db.selectFrom("organizations").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (org) {
    const membership = await ctx.db
      .selectFrom("memberships")
      .select("role")
      .where("organization_id", "=", org.id)
      .where("user_id", "=", user.id)
      .executeTakeFirst();
    if (membership) return { org, role: membership.role, projectIds: await visibleProjects(ctx, org, membership.role, user.id) };
    if (user.is_superuser) return { org, role: "owner", projectIds: null };
  }
  throw notFound(`organization '${slug}' does not exist`);
}

/** The projects of the user's teams when the organization limits members to them; else null (all). */
export async function visibleProjects(ctx: Ctx, org: Organization, role: Role, userId: number): Promise<ReadonlySet<number> | null> {
  if (hasGlobalAccess(role, org.open_membership === 1)) return null;
  const rows = await ctx.db
    .selectFrom("project_teams")
    .innerJoin("team_members", "team_members.team_id", "project_teams.team_id")
    .innerJoin("teams", "teams.id", "project_teams.team_id")
    .select("project_teams.project_id")
    .distinct()
    .where("team_members.user_id", "=", userId)
    .where("teams.organization_id", "=", org.id)
    .execute();
  return new Set(rows.map((r) => r.project_id));
}

/** Whether the access reaches a project (404 for it otherwise, as for one that does not exist). */
export function seesProject(access: Pick<OrgAccess, "projectIds">, projectId: number): boolean {
  return access.projectIds === null || access.projectIds.has(projectId);
}
