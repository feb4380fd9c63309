import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "./0002_internal_project";
import type { Migration } from "./helpers";

/**
 * Telltale's own project reports from the machine it runs on, usually as localhost: the
 * localhost inbound filter, on by default for every project, is off for it.
 */
export const m0005: Migration = {
  async up(db) {
    const project = await db
      .selectFrom("projects")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select("projects.id")
      .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
      .where("projects.slug", "=", INTERNAL_PROJECT_SLUG)
      .executeTakeFirst();
    if (!project) return;
    await db
      .insertInto("project_options")
      .values({ project_id: project.id, filters: JSON.stringify({ localhost: false }), scrubbing: "{}" })
      .execute();
  },
};
