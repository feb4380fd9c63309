import type { Project } from "../../db/schema";
import type { Ctx } from "../context";
import { notFound } from "../errors";
import { seesProject, type OrgScope } from "../orgs/access";

/** The organization's projects the user sees (with open membership off, their teams' projects). */
export async function listProjects(ctx: Ctx, scope: OrgScope): Promise<Project[]> {
  const all = await ctx.db.selectFrom("projects").selectAll().where("organization_id", "=", scope.org.id).orderBy("slug").execute();
  return all.filter((p) => seesProject(scope, p.id));
}

/** A project of the organization by slug; one the user does not see is "not found" like a missing one. */
export async function projectInOrg(ctx: Ctx, scope: OrgScope, slug: string): Promise<Project> {
  const { org } = scope;
  const project = await ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("organization_id", "=", org.id)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!project || !seesProject(scope, project.id)) throw notFound(`project '${slug}' does not exist in organization '${org.slug}'`);
  return project;
}

/** A project by organization and project slug, for callers without a user (the CLI). */
export async function findProject(ctx: Ctx, orgSlug: string, projectSlug: string): Promise<Project> {
  const org = await ctx.db.selectFrom("organizations").selectAll().where("slug", "=", orgSlug).executeTakeFirst();
  if (!org) throw notFound(`organization '${orgSlug}' does not exist`);
  return projectInOrg(ctx, { org, projectIds: null }, projectSlug);
}
