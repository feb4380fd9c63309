import { z } from "zod";
import { Slug } from "../accounts/schemas";
import type { Ctx } from "../context";
import { conflict, forbidden, invalidInput, notFound } from "../errors";
import type { OrgAccess } from "../orgs/access";
import type { TeamRole } from "../orgs/roles";
import { roleAllows } from "../permissions/table";
import type { TeamRecord } from "../ports/directory";
import { validate } from "../validate";

export const NewTeam = z.object({ slug: Slug, name: z.string().trim().max(200).optional() });
export type NewTeam = z.input<typeof NewTeam>;

export const TeamChange = z
  .object({ slug: Slug.optional(), name: z.string().trim().min(1, "name: must not be empty").max(200).optional() })
  .strict();

export async function teamInOrg(ctx: Ctx, orgId: number, slug: string): Promise<TeamRecord> {
  const team = await ctx.directory.team(orgId, slug);
  if (!team) throw notFound(`team '${slug}' does not exist`);
  return team;
}

/** Creates a team; its creator, when a member, joins it as team admin (as in Sentry). */
export async function createTeam({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; creatorId: number; team: NewTeam };
}): Promise<TeamRecord> {
  const data = validate(NewTeam, input.team);
  const orgId = input.access.org.id;
  const isMember = (await ctx.directory.memberRole(orgId, input.creatorId)) !== null;
  const team = await ctx.directory.insertTeam(
    orgId,
    { slug: data.slug, name: data.name || data.slug },
    isMember ? input.creatorId : null,
    ctx.now(),
  );
  if (!team) throw conflict(`a team with slug '${data.slug}' already exists`);
  return team;
}

/** Renames a team (`PUT /api/0/teams/{org}/{team}/`); the body is validated here. */
export async function updateTeam({ ctx, input }: { ctx: Ctx; input: { team: TeamRecord; change: unknown } }): Promise<TeamRecord> {
  const change = validate(TeamChange, input.change);
  const updated = await ctx.directory.updateTeam(input.team, {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.slug !== undefined ? { slug: change.slug } : {}),
  });
  if (!updated) throw conflict(`a team with slug '${change.slug ?? ""}' already exists`);
  return updated;
}

/** Deletes a team; the projects only it had join the default team, which itself cannot be deleted. */
export async function deleteTeam(ctx: Ctx, team: TeamRecord): Promise<void> {
  if (team.isDefault) throw invalidInput("the default team cannot be deleted: projects created without a team join it");
  await ctx.directory.deleteTeam(team);
}

/**
 * Who may change a team's members and projects: whoever holds `team:write` in the organization,
 * or an admin of that team (Sentry's team admin).
 */
export async function assertMayManageTeam(ctx: Ctx, access: OrgAccess, actorId: number, team: TeamRecord): Promise<void> {
  if (roleAllows(access.role, "team:write")) return;
  if ((await ctx.directory.teamRole(team.id, actorId)) === "admin") return;
  throw forbidden("only team admins and organization admins can change this team");
}

interface TeamMemberInput {
  access: OrgAccess;
  actorId: number;
  team: TeamRecord;
  userId: number;
}

/**
 * Puts a member of the organization on a team. Joining oneself needs open membership (or a role
 * that manages teams); adding someone else needs to manage the team.
 */
export async function addTeamMember({ ctx, input }: { ctx: Ctx; input: TeamMemberInput & { role?: TeamRole } }): Promise<void> {
  const { access, actorId, team, userId } = input;
  if (userId === actorId) {
    if (access.org.open_membership !== 1 && !roleAllows(access.role, "team:write"))
      throw forbidden("this organization keeps teams closed: ask a team admin to add you");
  } else await assertMayManageTeam(ctx, access, actorId, team);
  if ((await ctx.directory.memberRole(access.org.id, userId)) === null) throw notFound("that user is not a member of this organization");
  await ctx.directory.addTeamMember(team.id, userId, userId === actorId ? "contributor" : (input.role ?? "contributor"), ctx.now());
}

/** Takes a member off a team: oneself (leaving) or, for those who manage the team, anyone. */
export async function removeTeamMember({ ctx, input }: { ctx: Ctx; input: TeamMemberInput }): Promise<void> {
  const { access, actorId, team, userId } = input;
  if (userId !== actorId) await assertMayManageTeam(ctx, access, actorId, team);
  if (!(await ctx.directory.removeTeamMember(team.id, userId))) throw notFound("that user is not on this team");
}

export async function setTeamRole({ ctx, input }: { ctx: Ctx; input: TeamMemberInput & { role: TeamRole } }): Promise<void> {
  await assertMayManageTeam(ctx, input.access, input.actorId, input.team);
  if (!(await ctx.directory.setTeamRole(input.team.id, input.userId, input.role))) throw notFound("that user is not on this team");
}

/** Gives a project to a team too (projects may belong to several). */
export async function addProjectToTeam(
  ctx: Ctx,
  team: TeamRecord,
  project: { id: number; organization_id: number; slug: string },
): Promise<void> {
  if (project.organization_id !== team.organizationId) throw notFound(`project '${project.slug}' does not exist`);
  await ctx.directory.addProjectTeam(project.id, team.id);
}

/** Takes a project from a team; its last team keeps it (a project belongs to at least one). */
export async function removeProjectFromTeam(ctx: Ctx, team: TeamRecord, project: { id: number; slug: string }): Promise<void> {
  const removed = await ctx.directory.removeProjectTeam(project.id, team.id, (teams) => {
    if (teams <= 1) throw invalidInput(`'${project.slug}' has no other team: give it to another team first`);
  });
  if (!removed) throw notFound(`project '${project.slug}' is not one of this team's`);
}
