import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "../../db/migrations/0002_internal_project";
import type { Ctx } from "../context";

/**
 * The id of the project Telltale reports its own errors and traces to, found as migration 0002
 * created it (the internal organization's `telltale` project); undefined if it was removed.
 */
export async function findInternalProjectId(ctx: Ctx): Promise<number | undefined> {
  const row = await ctx.db
    .selectFrom("projects")
    .innerJoin("organizations", "organizations.id", "projects.organization_id")
    .select("projects.id")
    .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
    .where("projects.slug", "=", INTERNAL_PROJECT_SLUG)
    .executeTakeFirst();
  return row?.id;
}
