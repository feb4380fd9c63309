import { projectTarget } from "../../core/audit/targets";
import { invalidInput } from "../../core/errors";
import { groupingState, upgradeGrouping, type GroupingState } from "../../core/projects/grouping-config";
import { projectInOrg, projectSurroundings, type ProjectSurroundings } from "../../core/projects/queries";
import type { OrgScope } from "../../core/orgs/access";
import { projectTeams } from "./serialize";
import type { Ctx } from "../../core/context";
import { deleteProject, renameProject, type ProjectRename } from "../../core/projects/manage-project";
import { addProjectToTeam, removeProjectFromTeam, teamInOrg } from "../../core/teams/teams";
import type { Project } from "../../core/projects/project";
import { Created, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";

/** A project as Sentry's project details answer spells it, the grouping fields included. */
function serializeProject(project: Project, grouping: GroupingState, about: ProjectSurroundings | undefined) {
  return {
    id: String(project.id),
    slug: project.slug,
    name: project.name,
    platform: project.platform,
    dateCreated: new Date(project.created_at).toISOString(),
    groupingConfig: grouping.config,
    secondaryGroupingConfig: grouping.transitioning ? grouping.previous : null,
    // Sentry gives the expiry in seconds since the epoch.
    secondaryGroupingExpiry:
      grouping.transitioning && grouping.transitionUntil !== null ? Math.floor(grouping.transitionUntil / 1000) : null,
    groupingConfigUpgrades: grouping.upgrades,
    status: "active",
    features: [] as string[],
    ...projectTeams(about),
    environments: about?.environments ?? [],
  };
}

/** The project details answer, its teams and environments read alongside. */
async function projectJson(ctx: Ctx, scope: OrgScope, project: Project, grouping?: GroupingState) {
  const [state, about] = await Promise.all([grouping ?? groupingState(ctx, project.id), projectSurroundings(ctx, scope.org.id, [project])]);
  return serializeProject(project, state, about.get(project.id));
}

const PUT_FIELDS = ["name", "slug", "groupingConfig", "secondaryGroupingDays"];
const fieldsOf = (body: unknown): Record<string, unknown> =>
  body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
/** Whether a PUT renames the project (the part that needs project:write). */
const renames = ({ body }: { body: unknown }) => "name" in fieldsOf(body) || "slug" in fieldsOf(body);

/** `GET|PUT /api/0/projects/{org}/{project}/`: details, and the grouping upgrade (`{"groupingConfig": "<newer version>"}`). */
export const PROJECT_ROUTES: ApiRoute[] = [
  route("GET", "/projects/{}/{}", "project:read", async ({ ctx, access, params: [, slug] }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    return projectJson(ctx, access, project);
  }),
  // Renaming (name, slug) also needs project:write; the grouping upgrade is a setting.
  route(
    "PUT",
    "/projects/{}/{}",
    "project:settings:write",
    async ({ ctx, access, params: [, slug], body, audit }) => {
      let project = await projectInOrg(ctx, access, slug ?? "");
      const before = { slug: project.slug, name: project.name };
      const fields = fieldsOf(body);
      const unknown = Object.keys(fields).filter((k) => !PUT_FIELDS.includes(k));
      if (
        unknown.length > 0 ||
        Object.keys(fields).length === 0 ||
        (fields.groupingConfig !== undefined && typeof fields.groupingConfig !== "string")
      ) {
        throw invalidInput(
          'send "name" or "slug" to rename, or {"groupingConfig": "<a newer version>"} and optionally "secondaryGroupingDays" (0 to 365)',
        );
      }
      if (renames({ body })) {
        const change = {
          ...(fields.name !== undefined ? { name: fields.name } : {}),
          ...(fields.slug !== undefined ? { slug: fields.slug } : {}),
        };
        const renamed = await renameProject({ ctx, input: { project, change: change as ProjectRename } });
        project = { ...project, ...renamed };
      }
      // One entry per request: a rename (with a grouping upgrade in the same request, if any) or the upgrade alone.
      const after = {
        slug: project.slug,
        name: project.name,
        ...(typeof fields.groupingConfig === "string" ? { groupingConfig: fields.groupingConfig } : {}),
      };
      if (renames({ body })) await audit({ event: "project.edit", target: projectTarget(project), before, after });
      else
        await audit({
          event: "project.edit-grouping",
          target: projectTarget(project),
          after: { groupingConfig: String(fields.groupingConfig) },
        });
      if (typeof fields.groupingConfig !== "string") return projectJson(ctx, access, project);
      const days = fields.secondaryGroupingDays;
      if (days !== undefined && typeof days !== "number") throw invalidInput("secondaryGroupingDays is a number of days");
      const state = await upgradeGrouping({
        ctx,
        input: { projectId: project.id, to: fields.groupingConfig, ...(days !== undefined ? { transitionDays: days } : {}) },
      });
      return projectJson(ctx, access, project, state);
    },
    { permission: "project:write", when: renames },
  ),
  route("DELETE", "/projects/{}/{}", "project:delete", async ({ ctx, access, params: [, slug], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    await deleteProject({ ctx, input: { project } });
    await audit({ event: "project.remove", target: projectTarget(project), before: { slug: project.slug, name: project.name } });
    return new NoContent();
  }),
  // Sentry's "add a team to a project" / "delete a team from a project".
  route("POST", "/projects/{}/{}/teams/{}", "project:write", async ({ ctx, access, params: [, slug, teamSlug], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const team = await teamInOrg(ctx, access.org.id, teamSlug ?? "");
    await addProjectToTeam(ctx, team, project);
    await audit({ event: "project.add-team", target: projectTarget(project), after: { team: team.slug } });
    return new Created(await withTeams(ctx, project));
  }),
  route("DELETE", "/projects/{}/{}/teams/{}", "project:write", async ({ ctx, access, params: [, slug, teamSlug], audit }) => {
    const project = await projectInOrg(ctx, access, slug ?? "");
    const team = await teamInOrg(ctx, access.org.id, teamSlug ?? "");
    await removeProjectFromTeam(ctx, team, project);
    await audit({ event: "project.remove-team", target: projectTarget(project), before: { team: team.slug } });
    return withTeams(ctx, project);
  }),
];

/** The project with its teams, as Sentry answers the project-team routes. */
async function withTeams(ctx: Ctx, project: Project) {
  const teams = await ctx.directory.teamsOfProject(project.id);
  return {
    id: String(project.id),
    slug: project.slug,
    name: project.name,
    teams: teams.map((t) => ({ id: String(t.id), slug: t.slug, name: t.name })),
  };
}
