import { z } from "zod";
import { Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, notFound } from "../errors";
import { generateKeyPair } from "../keys/generate";
import { DEFAULT_RULE } from "../alerts/rule-schema";
import { validate } from "../validate";
import { PLATFORM_IDS } from "./platforms";
import type { Project, ProjectKey } from "./project";

export const NewProject = z.object({
  org: Slug,
  slug: Slug,
  name: z.string().trim().max(200).optional(),
  // A string at the boundary (form field, CLI flag); the enum names the platforms in its error.
  platform: z.string().pipe(z.enum(PLATFORM_IDS)).default("javascript"),
  /** The team that owns it; without one, the organization's default team. */
  team: Slug.optional(),
});
export type NewProject = z.input<typeof NewProject>;

/**
 * Creates a project in an organization with its first (default) DSN key and Sentry's default
 * alert rule (email the project's members about a new issue; it can be switched off). The
 * internal project is made by a migration, not here, and so has no rule.
 */
export async function createProject({ ctx, input }: { ctx: Ctx; input: NewProject }): Promise<{ project: Project; key: ProjectKey }> {
  const data = validate(NewProject, input);
  const created = await ctx.projects.create({
    orgSlug: data.org,
    slug: data.slug,
    name: data.name ?? data.slug,
    platform: data.platform,
    ...(data.team !== undefined ? { teamSlug: data.team } : {}),
    key: generateKeyPair(),
    rule: DEFAULT_RULE,
    now: ctx.now(),
  });
  if (!("refused" in created)) return created;
  switch (created.refused) {
    case "no_organization":
      throw notFound(`organization '${data.org}' does not exist`);
    case "slug_taken":
      throw conflict(`project '${data.slug}' already exists in organization '${data.org}'`);
    case "no_team":
      throw notFound(`team '${data.team ?? ""}' does not exist in organization '${data.org}'`);
  }
}
