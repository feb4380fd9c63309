import { projectTarget, teamTarget } from "../../core/audit/targets";
import type { Ctx } from "../../core/context";
import { invalidInput } from "../../core/errors";
import type { OrgAccess } from "../../core/orgs/access";
import { createProject } from "../../core/projects/create-project";
import { listProjects } from "../../core/projects/queries";
import { createTeam, deleteTeam, teamInOrg, updateTeam } from "../../core/teams/teams";
import { teamJson } from "./member-routes";
import { Created, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";
import { serializeProject } from "./serialize";
import { serializeTeam } from "./serialize-access";

const fieldsOf = (body: unknown): Record<string, unknown> =>
  body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Sentry derives a slug from a name when only the name is sent. */
const slugFrom = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);

/** The team's projects as Sentry lists them, limited to those the caller sees. */
async function teamProjects(ctx: Ctx, access: OrgAccess, teamId: number) {
  const detail = (await ctx.directory.teams(access.org.id)).find((t) => t.team.id === teamId);
  const ids = new Set(detail?.projects.map((p) => p.id) ?? []);
  return (await listProjects(ctx, access)).filter((p) => ids.has(p.id)).map((p) => serializeProject(p, access.org, true));
}

/** Teams in Sentry's paths: list and create in the organization, one team, its projects. */
export const TEAM_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/teams", "team:read", async ({ ctx, access, user, query }) => {
    const expand = query.getAll("expand").includes("projects") || query.get("detailed") === "1";
    const teams = await ctx.directory.teams(access.org.id);
    return Promise.all(
      teams.map(async (t) => ({
        ...serializeTeam(t, access, user.id),
        ...(expand ? { projects: await teamProjects(ctx, access, t.team.id) } : {}),
      })),
    );
  }),
  route("POST", "/organizations/{}/teams", "team:write", async ({ ctx, access, user, body, audit }) => {
    const fields = fieldsOf(body);
    const name = text(fields.name);
    const slug = text(fields.slug) ?? (name ? slugFrom(name) : undefined);
    if (!slug) throw invalidInput('send {"slug": "…"} or {"name": "…"}', { slug: "required" });
    const team = await createTeam({ ctx, input: { access, creatorId: user.id, team: { slug, ...(name ? { name } : {}) } } });
    await audit({ event: "team.create", target: teamTarget(team), after: { slug: team.slug, name: team.name } });
    return new Created(await teamJson(ctx, access, user, team.slug));
  }),
  route("GET", "/teams/{}/{}", "team:read", async ({ ctx, access, user, params }) => {
    const team = await teamInOrg(ctx, access.org.id, params[1] ?? "");
    return { ...(await teamJson(ctx, access, user, team.slug)), projects: await teamProjects(ctx, access, team.id) };
  }),
  route("PUT", "/teams/{}/{}", "team:write", async ({ ctx, access, user, params, body, audit }) => {
    const team = await teamInOrg(ctx, access.org.id, params[1] ?? "");
    const updated = await updateTeam({ ctx, input: { team, change: body } });
    const [before, after] = [team, updated].map((t) => ({ slug: t.slug, name: t.name }));
    await audit({ event: "team.edit", target: teamTarget(updated), before, after });
    return teamJson(ctx, access, user, updated.slug);
  }),
  route("DELETE", "/teams/{}/{}", "team:delete", async ({ ctx, access, params, audit }) => {
    const team = await teamInOrg(ctx, access.org.id, params[1] ?? "");
    await deleteTeam(ctx, team);
    await audit({ event: "team.remove", target: teamTarget(team), before: { slug: team.slug, name: team.name } });
    return new NoContent();
  }),
  route("GET", "/teams/{}/{}/projects", "team:read", async ({ ctx, access, params }) => {
    const team = await teamInOrg(ctx, access.org.id, params[1] ?? "");
    return teamProjects(ctx, access, team.id);
  }),
  // Sentry's "create a new project" lives under the team that will own it.
  route("POST", "/teams/{}/{}/projects", "project:write", async ({ ctx, access, params, body, audit }) => {
    const team = await teamInOrg(ctx, access.org.id, params[1] ?? "");
    const fields = fieldsOf(body);
    const name = text(fields.name);
    const slug = text(fields.slug) ?? (name ? slugFrom(name) : undefined);
    if (!slug) throw invalidInput('send {"name": "…"} and optionally "slug" and "platform"', { name: "required" });
    const platform = text(fields.platform);
    const { project } = await createProject({
      ctx,
      input: { org: access.org.slug, slug, ...(name ? { name } : {}), ...(platform ? { platform } : {}), team: team.slug },
    });
    await audit({ event: "project.create", target: projectTarget(project), after: { slug: project.slug, platform: project.platform } });
    return new Created(serializeProject(project, access.org, true));
  }),
];
