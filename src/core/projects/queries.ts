import type { Organization, Project } from "../../db/schema";
import type { Ctx } from "../context";
import { notFound } from "../errors";

export function listProjects(ctx: Ctx, org: Organization): Promise<Project[]> {
  return ctx.db.selectFrom("projects").selectAll().where("organization_id", "=", org.id).orderBy("slug").execute();
}

export async function projectInOrg(ctx: Ctx, org: Organization, slug: string): Promise<Project> {
  const project = await ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("organization_id", "=", org.id)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!project) throw notFound(`project '${slug}' does not exist in organization '${org.slug}'`);
  return project;
}

/** A project by organization and project slug, for callers without a user (the CLI). */
export async function findProject(ctx: Ctx, orgSlug: string, projectSlug: string): Promise<Project> {
  const org = await ctx.db.selectFrom("organizations").selectAll().where("slug", "=", orgSlug).executeTakeFirst();
  if (!org) throw notFound(`organization '${orgSlug}' does not exist`);
  return projectInOrg(ctx, org, projectSlug);
}
