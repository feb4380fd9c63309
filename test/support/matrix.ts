import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import type { Role } from "../../src/core/orgs/roles";
import { permissionRow, type Permission } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import { INTERNAL_ORG_SLUG } from "../../src/db/migrations/0002_internal_project";
import type { User } from "../../src/db/schema";
import type { Store } from "../../src/db/store";

/**
 * The people and organizations of the authorization matrix: each role of the
 * organization "acme", a superuser who belongs nowhere, and an outsider who owns "other";
 * the organizations are acme, other and the internal (self-monitoring) one.
 */
export const WHO = ["owner", "manager", "admin", "member", "superuser", "outsider"] as const;
export type Who = (typeof WHO)[number];
export const ORGS = ["acme", "other", INTERNAL_ORG_SLUG] as const;
export type OrgSlug = (typeof ORGS)[number];

export type Outcome = "allow" | "forbidden" | "not_found";

export interface MatrixWorld {
  users: Record<Who, User>;
  orgIds: Record<OrgSlug, number>;
  /** Each organization's project "web". */
  webProjectIds: Record<OrgSlug, number>;
  /** Puts every membership and organization back as seeded (an allowed cell may have changed them). */
  restore(): Promise<void>;
}

const MEMBERSHIPS: readonly [Who, OrgSlug, Role][] = [
  ["owner", "acme", "owner"],
  ["manager", "acme", "manager"],
  ["admin", "acme", "admin"],
  ["member", "acme", "member"],
  ["outsider", "other", "owner"],
];

export async function seedMatrix(ctx: Ctx, store: Store): Promise<MatrixWorld> {
  const users = {} as Record<Who, User>;
  for (const who of WHO)
    users[who] = await createUser({
      ctx,
      input: { email: `${who}@example.com`, password: "password-123", superuser: who === "superuser" },
    });
  for (const slug of ["acme", "other"] as const) {
    await createOrganization({ ctx, input: { slug, name: slug === "acme" ? "Acme" : "Other" } });
    await createProject({ ctx, input: { org: slug, slug: "web" } });
  }
  // Every organization has a project "web", the internal one besides its own.
  await createProject({ ctx, input: { org: INTERNAL_ORG_SLUG, slug: "web" } });
  const orgs = await store.db.selectFrom("organizations").select(["id", "slug", "name"]).execute();
  const orgIds = Object.fromEntries(orgs.map((o) => [o.slug, o.id])) as Record<OrgSlug, number>;
  const webs = await store.db.selectFrom("projects").select(["id", "organization_id"]).where("slug", "=", "web").execute();
  const webProjectIds = Object.fromEntries(orgs.map((o) => [o.slug, webs.find((p) => p.organization_id === o.id)?.id ?? 0])) as Record<
    OrgSlug,
    number
  >;
  const seeded = new Map(orgs.map((o) => [o.id, o]));
  const restore = async () => {
    for (const [id, org] of seeded)
      await store.db
        .updateTable("organizations")
        .set({ slug: org.slug, name: org.name, open_membership: 1 })
        .where("id", "=", id)
        .execute();
    for (const [who, org, role] of MEMBERSHIPS) {
      const changed = await store.db
        .updateTable("memberships")
        .set({ role })
        .where("organization_id", "=", orgIds[org])
        .where("user_id", "=", users[who].id)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0)
        await store.db
          .insertInto("memberships")
          .values({ organization_id: orgIds[org], user_id: users[who].id, role, created_at: 0 })
          .execute();
    }
  };
  await restore();
  return { users, orgIds, webProjectIds, restore };
}

/** The role `who` acts with in `org`: their membership's, owner for a superuser without one, else none. */
export function roleIn(who: Who, org: OrgSlug): Role | null {
  const membership = MEMBERSHIPS.find(([w, o]) => w === who && o === org);
  if (membership) return membership[2];
  return who === "superuser" ? "owner" : null;
}

/**
 * What the permission table says should happen: an organization row allows the roles it lists,
 * refuses other members (403), and hides the organization from non-members (404); a signed-in
 * row allows everyone signed in; a superuser row allows superusers alone.
 */
export function expected(who: Who, org: OrgSlug, permission: Permission): Outcome {
  const row = permissionRow(permission);
  if (row.audience === "public" || row.audience === "signed-in") return "allow";
  // A superuser row refuses everyone else (an action says "not allowed"; a page is not found).
  if (row.audience === "superuser") return who === "superuser" ? "allow" : "forbidden";
  const role = roleIn(who, org);
  if (role === null) return "not_found";
  return (row.roles as readonly Role[]).includes(role) ? "allow" : "forbidden";
}

/** An organization-level "not found" (the organization's existence does not leak), as opposed to a missing thing inside it. */
export const ORG_NOT_FOUND = /^organization '[^']*' does not exist$/;
