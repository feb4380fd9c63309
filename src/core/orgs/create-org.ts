import type { Kysely } from "kysely";
import { z } from "zod";
import type { DB, Organization } from "../../db/schema";
import { Email, Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, invalidInput, notFound } from "../errors";
import { insertTeamRow } from "../../db/directory";
import { validate } from "../validate";

export const NewOrganization = z.object({
  slug: Slug,
  name: z.string().trim().max(200).optional(),
  /** Email of the user who becomes its owner. */
  owner: Email.optional(),
});
export type NewOrganization = z.input<typeof NewOrganization>;

export async function createOrganization({ ctx, input }: { ctx: Ctx; input: NewOrganization }): Promise<Organization> {
  const data = validate(NewOrganization, input);
  return ctx.db.transaction().execute(async (trx) => {
    let ownerId: number | undefined;
    if (data.owner) {
      const owner = await trx.selectFrom("users").select("id").where("email", "=", data.owner).executeTakeFirst();
      if (!owner) throw notFound(`user '${data.owner}' does not exist`);
      ownerId = owner.id;
    }
    return insertOrganization(trx, ctx.now(), { slug: data.slug, name: data.name ?? data.slug, ownerId });
  });
}

export async function insertOrganization(
  db: Kysely<DB>,
  now: number,
  org: { slug: string; name: string; ownerId?: number | undefined },
): Promise<Organization> {
  const taken = await db.selectFrom("organizations").select("id").where("slug", "=", org.slug).executeTakeFirst();
  if (taken) throw conflict(`an organization with slug '${org.slug}' already exists`);
  const row = await db
    .insertInto("organizations")
    .values({ slug: org.slug, name: org.name || org.slug, is_internal: 0, created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (org.ownerId !== undefined) {
    await db.insertInto("memberships").values({ organization_id: row.id, user_id: org.ownerId, role: "owner", created_at: now }).execute();
  }
  // Every organization has a default team, named after it, holding its owner.
  await insertTeamRow(db, row.id, { slug: row.slug, name: row.name, isDefault: true }, org.ownerId ?? null, now);
  return row;
}

export const OrganizationChange = z
  .object({ name: z.string().trim().min(1, "name: must not be empty").max(200).optional(), slug: Slug.optional() })
  .strict();
export type OrganizationChange = z.input<typeof OrganizationChange>;

/**
 * Renames an organization (`PUT /api/0/organizations/{org}/`): its name, or its slug — which moves
 * its pages and API paths. The self-monitoring organization keeps its slug.
 */
export async function updateOrganization({
  ctx,
  input,
}: {
  ctx: Ctx;
  /** `change` is the request body as sent: validated here. */
  input: { org: Organization; change: unknown };
}): Promise<Organization> {
  const change = validate(OrganizationChange, input.change);
  const { org } = input;
  if (change.slug !== undefined && change.slug !== org.slug) {
    if (org.is_internal === 1) throw invalidInput("slug: the self-monitoring organization keeps its slug");
    const taken = await ctx.db.selectFrom("organizations").select("id").where("slug", "=", change.slug).executeTakeFirst();
    if (taken) throw conflict(`an organization with slug '${change.slug}' already exists`);
  }
  const values = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.slug !== undefined ? { slug: change.slug } : {}),
  };
  if (Object.keys(values).length === 0) return org;
  return ctx.db.updateTable("organizations").set(values).where("id", "=", org.id).returningAll().executeTakeFirstOrThrow();
}
