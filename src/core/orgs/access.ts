import type { User } from "../accounts/user";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { Organization } from "./organization";
import { hasGlobalAccess, type Role } from "./roles";

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
export async function listOrganizations(ctx: Ctx, user: Pick<User, "id" | "is_superuser">): Promise<OrgAccess[]> {
  if (user.is_superuser) {
    const [orgs, memberships] = await Promise.all([ctx.organizations.all(), ctx.directory.membershipsOf(user.id)]);
    const roles = new Map(memberships.map((m) => [m.org.id, m.role]));
    return orgs.map((org) => ({ org, role: roles.get(org.id) ?? "owner", projectIds: null }));
  }
  const memberships = await ctx.directory.membershipsOf(user.id);
  return Promise.all(memberships.map(async ({ org, role }) => ({ org, role, projectIds: await visibleProjects(ctx, org, role, user.id) })));
}

/**
 * The organization with this slug, if the user may see it. An organization the user cannot
 * see is reported as missing, so its existence does not leak.
 */
export async function organizationFor(ctx: Ctx, user: Pick<User, "id" | "is_superuser">, slug: string): Promise<OrgAccess> {
  const org = await ctx.organizations.bySlug(slug);
  if (org) {
    const role = await ctx.directory.memberRole(org.id, user.id);
    if (role) return { org, role, projectIds: await visibleProjects(ctx, org, role, user.id) };
    if (user.is_superuser) return { org, role: "owner", projectIds: null };
  }
  throw notFound(`organization '${slug}' does not exist`);
}

/** The projects of the user's teams when the organization limits members to them; else null (all). */
export async function visibleProjects(ctx: Ctx, org: Organization, role: Role, userId: number): Promise<ReadonlySet<number> | null> {
  if (hasGlobalAccess(role, org.open_membership === 1)) return null;
  return new Set(await ctx.directory.teamProjectIds(org.id, userId));
}

/** Whether the access reaches a project (404 for it otherwise, as for one that does not exist). */
export function seesProject(access: Pick<OrgAccess, "projectIds">, projectId: number): boolean {
  return access.projectIds === null || access.projectIds.has(projectId);
}
