import { z } from "zod";
import { Email, Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, invalidInput, notFound } from "../errors";
import { validate } from "../validate";
import type { Organization } from "./organization";

export const NewOrganization = z.object({
  slug: Slug,
  name: z.string().trim().max(200).optional(),
  /** Email of the user who becomes its owner. */
  owner: Email.optional(),
});
export type NewOrganization = z.input<typeof NewOrganization>;

/** An organization, with its default team; the owner, when named, joins both. */
export async function createOrganization({ ctx, input }: { ctx: Ctx; input: NewOrganization }): Promise<Organization> {
  const data = validate(NewOrganization, input);
  const result = await ctx.organizations.create({ slug: data.slug, name: data.name || data.slug }, data.owner ?? null, ctx.now());
  if ("org" in result) return result.org;
  throw result.refused === "unknown-owner"
    ? notFound(`user '${data.owner}' does not exist`)
    : conflict(`an organization with slug '${data.slug}' already exists`);
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
  }
  const values = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.slug !== undefined ? { slug: change.slug } : {}),
  };
  if (Object.keys(values).length === 0) return org;
  const updated = await ctx.organizations.update(org.id, values);
  if (!updated) throw conflict(`an organization with slug '${change.slug}' already exists`);
  return updated;
}
