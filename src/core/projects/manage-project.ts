import { z } from "zod";
import { Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, invalidInput } from "../errors";
import { validate } from "../validate";

export const ProjectRename = z
  .object({ slug: Slug.optional(), name: z.string().trim().min(1, "name: must not be empty").max(200).optional() })
  .strict();
export type ProjectRename = z.input<typeof ProjectRename>;

interface ProjectRef {
  id: number;
  organization_id: number;
  slug: string;
}

/** Renames a project (`PUT /api/0/projects/{org}/{project}/` with `name`/`slug`); a slug taken in the organization is a conflict. */
export async function renameProject({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { project: ProjectRef; change: ProjectRename };
}): Promise<{ id: number; slug: string; name: string }> {
  const change = validate(ProjectRename, input.change);
  const renamed = await ctx.directory.updateProject(input.project.organization_id, input.project.id, change);
  if (!renamed) throw conflict(`a project with slug '${change.slug ?? ""}' already exists`);
  return renamed;
}

/**
 * Deletes a project with all its data. The pages ask the person to type the slug (`confirm`),
 * as Sentry does, so a project is not deleted by a stray click; the web API passes none.
 */
export async function deleteProject({ ctx, input }: { ctx: Ctx; input: { project: ProjectRef; confirm?: string } }): Promise<void> {
  if (input.confirm !== undefined && input.confirm.trim() !== input.project.slug)
    throw invalidInput(`type the project's slug, ${input.project.slug}, to delete it`, { confirm: "does not match the slug" });
  await ctx.directory.deleteProject(input.project.id);
}
