import type { OrgAccess } from "../../core/orgs/access";
import { hasGlobalAccess, ROLE_INFO } from "../../core/orgs/roles";
import type { MemberRecord, TeamDetail } from "../../core/ports/directory";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Sentry's organization member (`GET /api/0/organizations/{org}/members/`,
 * https://docs.sentry.io/api/organizations/list-an-organizations-members/). A member's id is
 * their user id here: memberships have no id of their own. `role` is Sentry's older name of `orgRole`.
 */
export function serializeMember(member: MemberRecord, teams: readonly TeamDetail[]) {
  const teamRoles = teams.flatMap((t) =>
    t.members.filter((m) => m.userId === member.userId).map((m) => ({ teamSlug: t.team.slug, role: m.role })),
  );
  return {
    id: String(member.userId),
    email: member.email,
    name: member.name || member.email,
    orgRole: member.role,
    role: member.role,
    roleName: ROLE_INFO[member.role].label,
    dateCreated: iso(member.joinedAt),
    pending: false,
    expired: false,
    inviteStatus: "approved",
    user: { id: String(member.userId), email: member.email, name: member.name || member.email, username: member.email },
    teams: member.teams,
    teamRoles,
  };
}

/** Sentry's team (https://docs.sentry.io/api/teams/retrieve-a-team/); `projects` is the caller's choice (`?expand=projects`). */
export function serializeTeam(detail: TeamDetail, access: OrgAccess, userId: number) {
  const mine = detail.members.find((m) => m.userId === userId);
  return {
    id: String(detail.team.id),
    slug: detail.team.slug,
    name: detail.team.name,
    dateCreated: iso(detail.team.createdAt),
    isMember: mine !== undefined,
    teamRole: mine?.role ?? null,
    memberCount: detail.members.length,
    // Sentry: a team's projects are reachable to its members, and to everyone with open membership.
    hasAccess: mine !== undefined || hasGlobalAccess(access.role, access.org.open_membership === 1),
    isPending: false,
    avatar: { avatarType: "letter_avatar", avatarUuid: null },
  };
}
