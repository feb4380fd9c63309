import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "../../db/migrations/0002_internal_project";
import type { Ctx } from "../context";

/**
 * The id of the project Telltale reports its own errors and traces to, found as migration 0002
 * created it (the internal organization's `telltale` project); undefined if it was removed.
 */
export async function findInternalProjectId(ctx: Ctx): Promise<number | undefined> {
  return (await findInternalProject(ctx))?.id;
}

/** The internal project with its organization's id; undefined if it was removed. */
export async function findInternalProject(ctx: Ctx): Promise<{ id: number; organizationId: number } | undefined> {
  return ctx.db
    .selectFrom("projects")
    .innerJoin("organizations", "organizations.id", "projects.organization_id")
    .select(["projects.id", "projects.organization_id as organizationId"])
    .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
    .where("projects.slug", "=", INTERNAL_PROJECT_SLUG)
    .executeTakeFirst();
}
