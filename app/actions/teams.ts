"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import type { Ctx } from "@/src/core/context";
import { invalidInput } from "@/src/core/errors";
import type { OrgAccess } from "@/src/core/orgs/access";
import { isTeamRole, TEAM_ROLE_INFO } from "@/src/core/orgs/roles";
import { deleteProject } from "@/src/core/projects/manage-project";
import { projectInOrg } from "@/src/core/projects/queries";
import {
  addProjectToTeam,
  addTeamMember,
  createTeam,
  deleteTeam,
  removeProjectFromTeam,
  removeTeamMember,
  setTeamRole,
  teamInOrg,
  updateTeam,
} from "@/src/core/teams/teams";
import { projectTarget, teamTarget } from "@/src/core/audit/targets";
import { memberOf } from "@/src/core/orgs/members";
import { action } from "../lib/action";
import { field } from "../lib/forms";

const formTeam = (ctx: Ctx, access: OrgAccess, form: FormData) => teamInOrg(ctx, access.org.id, field(form, "team"));
const refresh = (access: OrgAccess) => revalidatePath(`/orgs/${access.org.slug}`, "layout");

/** The member a team change is about, by address, for the audit log's summary. */
const emailOf = async (ctx: Ctx, access: OrgAccess, userId: number) => (await memberOf(ctx, access.org.id, userId)).email;

function userIdOf(form: FormData): number {
  const id = Number(field(form, "userId"));
  if (!Number.isInteger(id) || id <= 0) throw invalidInput("choose a member", { userId: "choose a member" });
  return id;
}

export const createTeamAction = action(
  "team:write",
  async ({ ctx, user, access, form, audit }) => {
    const team = await createTeam({
      ctx,
      input: { access, creatorId: user.id, team: { slug: field(form, "slug"), name: field(form, "name") || undefined } },
    });
    await audit({ event: "team.create", target: teamTarget(team), after: { slug: team.slug, name: team.name } });
    redirect(`/orgs/${access.org.slug}/teams/${team.slug}`);
  },
  { keep: ["slug", "name"] },
);

export const renameTeamAction = action(
  "team:write",
  async ({ ctx, access, form, audit }) => {
    const team = await formTeam(ctx, access, form);
    const updated = await updateTeam({ ctx, input: { team, change: { name: field(form, "name"), slug: field(form, "slug") } } });
    const before = { slug: team.slug, name: team.name };
    await audit({ event: "team.edit", target: teamTarget(updated), before, after: { slug: updated.slug, name: updated.name } });
    if (updated.slug !== team.slug) redirect(`/orgs/${access.org.slug}/teams/${updated.slug}`);
    refresh(access);
    return { notice: "Saved." };
  },
  { keep: ["name", "slug"] },
);

export const deleteTeamAction = action("team:delete", async ({ ctx, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  await deleteTeam(ctx, team);
  await audit({ event: "team.remove", target: teamTarget(team), before: { slug: team.slug, name: team.name } });
  refresh(access);
  redirect(`/orgs/${access.org.slug}/teams`);
});

/** Join (oneself) or add someone: the team rules decide who may add whom. */
export const addTeamMemberAction = action("team:join", async ({ ctx, user, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  const userId = form.has("userId") ? userIdOf(form) : user.id;
  const role = field(form, "role") || "contributor";
  if (!isTeamRole(role)) throw invalidInput("choose a team role");
  await addTeamMember({ ctx, input: { access, actorId: user.id, team, userId, role } });
  await audit({
    event: "member.join-team",
    target: teamTarget(team),
    after: { member: await emailOf(ctx, access, userId), teamRole: role },
  });
  refresh(access);
  return { notice: userId === user.id ? `You joined #${team.slug}.` : "Added to the team." };
});

/** Leave (oneself) or take someone off the team. */
export const removeTeamMemberAction = action("team:join", async ({ ctx, user, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  const userId = form.has("userId") ? userIdOf(form) : user.id;
  await removeTeamMember({ ctx, input: { access, actorId: user.id, team, userId } });
  await audit({ event: "member.leave-team", target: teamTarget(team), before: { member: await emailOf(ctx, access, userId) } });
  refresh(access);
  return { notice: userId === user.id ? `You left #${team.slug}.` : "Taken off the team." };
});

export const setTeamRoleAction = action("team:join", async ({ ctx, user, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  const role = field(form, "role");
  if (!isTeamRole(role)) throw invalidInput("choose a team role");
  const userId = userIdOf(form);
  await setTeamRole({ ctx, input: { access, actorId: user.id, team, userId, role } });
  await audit({
    event: "member.edit-team-role",
    target: teamTarget(team),
    after: { member: await emailOf(ctx, access, userId), teamRole: role },
  });
  refresh(access);
  return { notice: `Now ${TEAM_ROLE_INFO[role].label.toLowerCase()}.` };
});

export const addTeamProjectAction = action("project:write", async ({ ctx, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  const project = await projectInOrg(ctx, access, field(form, "project"));
  await addProjectToTeam(ctx, team, project);
  await audit({ event: "project.add-team", target: projectTarget(project), after: { team: team.slug } });
  refresh(access);
  return { notice: `#${team.slug} now has ${project.slug}.` };
});

export const removeTeamProjectAction = action("project:write", async ({ ctx, access, form, audit }) => {
  const team = await formTeam(ctx, access, form);
  const project = await projectInOrg(ctx, access, field(form, "project"));
  await removeProjectFromTeam(ctx, team, project);
  await audit({ event: "project.remove-team", target: projectTarget(project), before: { team: team.slug } });
  refresh(access);
  return { notice: `#${team.slug} no longer has ${project.slug}.` };
});

export const deleteProjectAction = action(
  "project:delete",
  async ({ ctx, access, form, audit }) => {
    const project = await projectInOrg(ctx, access, field(form, "project"));
    await deleteProject({ ctx, input: { project, confirm: field(form, "confirm") } });
    await audit({ event: "project.remove", target: projectTarget(project), before: { slug: project.slug, name: project.name } });
    refresh(access);
    redirect(`/orgs/${access.org.slug}`);
  },
  { keep: ["confirm"] },
);
