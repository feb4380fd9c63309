import { forbidden } from "../errors";

/** Sentry's organization roles, lowest first. What each may do is the permission table's business. */
export const ROLES = ["member", "admin", "manager", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** A member's role in a team: team admins manage the team's members and projects. */
export const TEAM_ROLES = ["contributor", "admin"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** How Sentry describes each role, shown where a role is chosen. */
export const ROLE_INFO: Record<Role, { label: string; summary: string }> = {
  member: { label: "Member", summary: "Sees the organization's projects and acts on issues: resolve, ignore, assign, comment." },
  admin: { label: "Admin", summary: "A member who also creates and configures projects and teams, and their keys." },
  manager: { label: "Manager", summary: "An admin who also invites and removes members and changes the organization's settings." },
  owner: { label: "Owner", summary: "May do everything, including managing other owners." },
};

export const TEAM_ROLE_INFO: Record<TeamRole, { label: string; summary: string }> = {
  contributor: { label: "Contributor", summary: "Works on the team's projects." },
  admin: { label: "Team admin", summary: "Also adds and removes the team's members and projects." },
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function isTeamRole(value: string): value is TeamRole {
  return (TEAM_ROLES as readonly string[]).includes(value);
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** The roles someone with `actor` may give (Sentry: none above one's own). */
export function assignableRoles(actor: Role): Role[] {
  return ROLES.filter((role) => roleRank(role) <= roleRank(actor));
}

/**
 * Whether `actor` may change or remove a member whose role is `target` and, when changing,
 * give them `next`: nobody gives a role above their own, and only owners touch owners.
 */
export function assertMayManage(actor: Role, target: Role, next?: Role): void {
  if (roleRank(target) > roleRank(actor)) throw forbidden(`only ${ROLE_INFO[target].label.toLowerCase()}s can change this member`);
  if (next !== undefined && roleRank(next) > roleRank(actor))
    throw forbidden(`you cannot give a role above your own (${ROLE_INFO[actor].label.toLowerCase()})`);
}

/** Owners and managers see every project even when open membership is off (Sentry's global access). */
export function hasGlobalAccess(role: Role, openMembership: boolean): boolean {
  return openMembership || roleRank(role) >= roleRank("manager");
}
