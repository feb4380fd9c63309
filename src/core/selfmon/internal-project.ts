import type { Ctx } from "../context";
import type { Project } from "../projects/project";

/** The organization and project migration 0002 makes for Telltale's own errors and traces. */
export const INTERNAL_ORG_SLUG = "telltale-internal";
export const INTERNAL_PROJECT_SLUG = "telltale";

/**
 * The id of the project Telltale reports its own errors and traces to, found as migration 0002
 * created it (the internal organization's `telltale` project); undefined if it was removed.
 */
export async function findInternalProjectId(ctx: Ctx): Promise<number | undefined> {
  return (await findInternalProject(ctx))?.id;
}

/** The internal project with its organization's id; undefined if it was removed. */
export async function findInternalProject(ctx: Ctx): Promise<{ id: number; organizationId: number } | undefined> {
  const project = await internalProject(ctx);
  return project ? { id: project.id, organizationId: project.organization_id } : undefined;
}

/** The internal project; null if it (or its organization) was removed. */
export async function internalProject(ctx: Ctx): Promise<Project | null> {
  const orgId = await ctx.projects.organizationId(INTERNAL_ORG_SLUG);
  return orgId === null ? null : ctx.projects.bySlug(orgId, INTERNAL_PROJECT_SLUG);
}
