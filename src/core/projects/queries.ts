import type { Ctx } from "../context";
import { notFound } from "../errors";
import { seesProject, type OrgScope } from "../orgs/access";
import type { Project } from "./project";

/** The organization's projects the user sees (with open membership off, their teams' projects). */
export async function listProjects(ctx: Ctx, scope: OrgScope): Promise<Project[]> {
  const all = await ctx.projects.list(scope.org.id);
  return all.filter((p) => seesProject(scope, p.id));
}

/** A project of the organization by slug; one the user does not see is "not found" like a missing one. */
export async function projectInOrg(ctx: Ctx, scope: OrgScope, slug: string): Promise<Project> {
  const { org } = scope;
  const project = await ctx.projects.bySlug(org.id, slug);
  if (!project || !seesProject(scope, project.id)) throw notFound(`project '${slug}' does not exist in organization '${org.slug}'`);
  return project;
}

/** A project by organization and project slug, for callers without a user (the CLI). */
export async function findProject(ctx: Ctx, orgSlug: string, projectSlug: string): Promise<Project> {
  const orgId = await ctx.projects.organizationId(orgSlug);
  if (orgId === null) throw notFound(`organization '${orgSlug}' does not exist`);
  const project = await ctx.projects.bySlug(orgId, projectSlug);
  if (!project) throw notFound(`project '${projectSlug}' does not exist in organization '${orgSlug}'`);
  return project;
}

/** What Sentry's project answers show beside each project: its teams and the environments it has seen. */
export interface ProjectSurroundings {
  teams: { id: number; slug: string; name: string }[];
  environments: string[];
}

/** The teams and environments of these projects of one organization, by project id. */
export async function projectSurroundings(
  ctx: Ctx,
  orgId: number,
  projects: readonly Pick<Project, "id">[],
): Promise<Map<number, ProjectSurroundings>> {
  const [teams, environments] = await Promise.all([
    ctx.directory.teams(orgId),
    Promise.all(projects.map((p) => ctx.releaseHealth.environments(p.id))),
  ]);
  return new Map(
    projects.map((p, i) => [
      p.id,
      {
        teams: teams
          .filter((t) => t.projects.some((q) => q.id === p.id))
          .map(({ team }) => ({ id: team.id, slug: team.slug, name: team.name })),
        environments: environments[i] ?? [],
      },
    ]),
  );
}
