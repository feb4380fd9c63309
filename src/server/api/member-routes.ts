import { memberTarget, teamTarget } from "../../core/audit/targets";
import type { Ctx } from "../../core/context";
import { invalidInput, notFound } from "../../core/errors";
import { rowIdOf } from "../../core/identifiers";
import type { OrgAccess } from "../../core/orgs/access";
import { changeMemberRole, memberOf, removeMember } from "../../core/orgs/members";
import { addTeamMember, removeTeamMember, teamInOrg } from "../../core/teams/teams";
import type { User } from "../../core/accounts/user";
import { Created, NoContent } from "./raw";
import { route, type ApiRoute } from "./route";
import { serializeMember, serializeTeam } from "./serialize-access";

/** The user a `{member_id}` names: `me` (Sentry's alias for oneself) or a member id, which is the user id here. */
function memberUserId(user: User, memberId: string | undefined): number {
  if (memberId === "me") return user.id;
  const id = rowIdOf(memberId ?? "");
  if (id !== null) return id;
  throw notFound("that member does not exist");
}

/** Whether a request names its own caller: leaving rather than removing someone. */
const isSelf = ({ user, params }: { user: User; params: string[] }) => memberUserId(user, params[1]) === user.id;

async function memberJson(ctx: Ctx, access: OrgAccess, userId: number) {
  const [member, teams] = await Promise.all([memberOf(ctx, access.org.id, userId), ctx.directory.teams(access.org.id)]);
  return serializeMember(member, teams);
}

/** The role a PUT asks for: Sentry's `orgRole`, or the older `role` its clients still send. */
function requestedRole(body: unknown): string {
  const fields = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const role = fields.orgRole ?? fields.role;
  if (typeof role !== "string") throw invalidInput('send {"orgRole": "member" | "admin" | "manager" | "owner"}', { orgRole: "required" });
  return role;
}

/**
 * Members: list, one, change a role, remove or leave; and team places
 * (`…/members/{member_id}/teams/{team}/`), where the team rules (src/core/teams) say who may add whom.
 */
export const MEMBER_ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}/members", "member:read", async ({ ctx, access }) => {
    const [members, teams] = await Promise.all([ctx.directory.members(access.org.id), ctx.directory.teams(access.org.id)]);
    return members.map((m) => serializeMember(m, teams));
  }),
  route("GET", "/organizations/{}/members/{}", "member:read", ({ ctx, access, user, params }) =>
    memberJson(ctx, access, memberUserId(user, params[1])),
  ),
  route("PUT", "/organizations/{}/members/{}", "member:write", async ({ ctx, access, user, params, body, audit }) => {
    const userId = memberUserId(user, params[1]);
    const before = await memberOf(ctx, access.org.id, userId);
    const member = await changeMemberRole({ ctx, input: { access, userId, role: requestedRole(body) } });
    await audit({ event: "member.edit", target: memberTarget(member), before: { role: before.role }, after: { role: member.role } });
    return memberJson(ctx, access, userId);
  }),
  // Everyone may leave (member:leave); removing someone else also needs member:write.
  route(
    "DELETE",
    "/organizations/{}/members/{}",
    "member:leave",
    async ({ ctx, access, user, params, audit }) => {
      const member = await memberOf(ctx, access.org.id, memberUserId(user, params[1]));
      await removeMember({ ctx, input: { access, actorId: user.id, userId: member.userId } });
      const event = member.userId === user.id ? "member.leave" : "member.remove";
      await audit({ event, target: memberTarget(member), before: { role: member.role } });
      return new NoContent();
    },
    { permission: "member:write", when: (request) => !isSelf(request) },
  ),
  route("POST", "/organizations/{}/members/{}/teams/{}", "team:join", async ({ ctx, access, user, params, audit }) => {
    const team = await teamInOrg(ctx, access.org.id, params[2] ?? "");
    const member = await memberOf(ctx, access.org.id, memberUserId(user, params[1]));
    await addTeamMember({ ctx, input: { access, actorId: user.id, team, userId: member.userId } });
    await audit({ event: "member.join-team", target: teamTarget(team), after: { member: member.email } });
    return new Created(await teamJson(ctx, access, user, team.slug));
  }),
  route("DELETE", "/organizations/{}/members/{}/teams/{}", "team:join", async ({ ctx, access, user, params, audit }) => {
    const team = await teamInOrg(ctx, access.org.id, params[2] ?? "");
    const member = await memberOf(ctx, access.org.id, memberUserId(user, params[1]));
    await removeTeamMember({ ctx, input: { access, actorId: user.id, team, userId: member.userId } });
    await audit({ event: "member.leave-team", target: teamTarget(team), before: { member: member.email } });
    return teamJson(ctx, access, user, team.slug);
  }),
];

export async function teamJson(ctx: Ctx, access: OrgAccess, user: User, slug: string) {
  const detail = (await ctx.directory.teams(access.org.id)).find((t) => t.team.slug === slug);
  if (!detail) throw notFound(`team '${slug}' does not exist`);
  return serializeTeam(detail, access, user.id);
}
