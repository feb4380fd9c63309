import type { Organization, Role, User } from "../../db/schema";
import type { Ctx } from "../context";
import { notFound } from "../errors";

export interface OrgAccess {
  org: Organization;
  /** The user's role; superusers without a membership act as owners. */
  role: Role;
}

/** Organizations a user can see: their memberships, or every organization for a superuser. */
export async function listOrganizations(ctx: Ctx, user: User): Promise<OrgAccess[]> {
  if (user.is_superuser) {
    const [orgs, roles] = await Promise.all([
      ctx.db.selectFrom("organizations").selectAll().orderBy("is_internal").orderBy("slug").execute(),
      rolesOf(ctx, user.id),
    ]);
    return orgs.map((org) => ({ org, role: roles.get(org.id) ?? "owner" }));
  }
  const rows = await ctx.db
    .selectFrom("memberships")
    .innerJoin("organizations", "organizations.id", "memberships.organization_id")
    .selectAll("organizations")
    .select("memberships.role")
    .where("memberships.user_id", "=", user.id)
    .orderBy("organizations.slug")
    .execute();
  return rows.map(({ role, ...org }) => ({ org, role }));
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
    if (membership) return { org, role: membership.role };
    if (user.is_superuser) return { org, role: "owner" };
  }
  throw notFound(`organization '${slug}' does not exist`);
}
