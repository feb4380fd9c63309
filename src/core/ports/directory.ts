import type { Organization } from "../orgs/organization";
import type { Role, TeamRole } from "../orgs/roles";

/** A member of an organization as the members page and API show them. */
export interface MemberRecord {
  userId: number;
  email: string;
  name: string;
  role: Role;
  joinedAt: number;
  /** Slugs of the organization's teams the member is on. */
  teams: string[];
}

export interface TeamRecord {
  id: number;
  organizationId: number;
  slug: string;
  name: string;
  /** The team created with the organization: projects created without a team join it. */
  isDefault: boolean;
  createdAt: number;
}

export interface TeamDetail {
  team: TeamRecord;
  members: { userId: number; email: string; name: string; role: TeamRole }[];
  projects: { id: number; slug: string; name: string; platform: string }[];
}

export interface PendingInvitation {
  id: number;
  organizationId: number;
  email: string;
  role: Role;
  teamIds: number[];
  invitedBy: number | null;
  createdAt: number;
  expiresAt: number;
}

/**
 * A check the store runs inside its transaction with what it read there, so that a rule (only
 * owners touch owners, an organization keeps an owner) decides on the state it changes. It
 * throws to refuse.
 */
export type MembershipCheck = (current: { role: Role; owners: number }) => void;

/**
 * Who belongs where: memberships, teams and their projects, invitations. The rules
 * live in src/core/orgs and src/core/teams; this says what they need from storage, implemented
 * over the main database by src/db/directory.ts.
 */
export interface Directory {
  members(orgId: number): Promise<MemberRecord[]>;
  memberRole(orgId: number, userId: number): Promise<Role | null>;
  /** The organizations the user is a member of, by slug, with their role in each. */
  membershipsOf(userId: number): Promise<{ org: Organization; role: Role }[]>;
  /** The projects of the user's teams in the organization. */
  teamProjectIds(orgId: number, userId: number): Promise<number[]>;
  /** False when there is no such member; `check` may refuse by throwing. */
  setMemberRole(orgId: number, userId: number, role: Role, check: MembershipCheck): Promise<boolean>;
  /**
   * Ends a membership with what hangs on it in the organization: team places, issue
   * assignments, the organization tokens the member made. False when there is no such member.
   */
  removeMember(orgId: number, userId: number, check: MembershipCheck, now: number): Promise<boolean>;
  /** Makes a member (an existing one keeps their role) and puts them on the teams. */
  addMember(orgId: number, userId: number, role: Role, teamIds: readonly number[], now: number): Promise<{ added: boolean }>;
  setOpenMembership(orgId: number, open: boolean): Promise<void>;

  teams(orgId: number): Promise<TeamDetail[]>;
  team(orgId: number, slug: string): Promise<TeamRecord | null>;
  /** Null when the slug is taken; `adminUserId` joins as team admin. */
  insertTeam(orgId: number, team: { slug: string; name: string }, adminUserId: number | null, now: number): Promise<TeamRecord | null>;
  /** Null when the new slug is taken. */
  updateTeam(team: TeamRecord, change: { slug?: string; name?: string }): Promise<TeamRecord | null>;
  /** Deletes a team; projects it alone had join the default team, its issue assignments end. */
  deleteTeam(team: TeamRecord): Promise<void>;
  teamRole(teamId: number, userId: number): Promise<TeamRole | null>;
  addTeamMember(teamId: number, userId: number, role: TeamRole, now: number): Promise<void>;
  removeTeamMember(teamId: number, userId: number): Promise<boolean>;
  setTeamRole(teamId: number, userId: number, role: TeamRole): Promise<boolean>;
  teamsOfProject(projectId: number): Promise<TeamRecord[]>;
  addProjectTeam(projectId: number, teamId: number): Promise<void>;
  /** `check` gets how many teams the project has and may refuse; false when the team does not have it. */
  removeProjectTeam(projectId: number, teamId: number, check: (teams: number) => void): Promise<boolean>;
  /** Renames a project of the organization; null when the new slug is taken there. */
  updateProject(
    orgId: number,
    projectId: number,
    change: { slug?: string; name?: string },
  ): Promise<{ id: number; slug: string; name: string } | null>;
  /**
   * Deletes a project and everything stored for it: events, issues and what hangs on them,
   * telemetry, keys, settings, its place in teams, and its rows still waiting in the ingest queue.
   */
  deleteProject(projectId: number): Promise<void>;

  organization(orgId: number): Promise<{ slug: string; name: string } | null>;
  /** A user by (lower-case) email, for an invitation's accept page. */
  userByEmail(email: string): Promise<{ id: number; email: string; name: string } | null>;

  invitations(orgId: number): Promise<PendingInvitation[]>;
  /** Replaces a pending invitation for the same address (a resend makes a new link). */
  putInvitation(invitation: Omit<PendingInvitation, "id">, tokenHash: string): Promise<PendingInvitation>;
  invitationByToken(tokenHash: string): Promise<PendingInvitation | null>;
  deleteInvitation(orgId: number, id: number): Promise<boolean>;
}
