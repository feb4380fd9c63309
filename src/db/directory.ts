import type { Kysely } from "kysely";
import type { Directory, MembershipCheck, MemberRecord, PendingInvitation, TeamDetail, TeamRecord } from "../core/ports/directory";
import type { Role, TeamRole } from "../core/orgs/roles";
import type { Dialect } from "./connect";
import type { Organization } from "../core/orgs/organization";
import { deleteProjectRows, renameProjectRow } from "./project-rows";
import type { DB, Invitation, QueueDB } from "./schema";
import { defaultTeamId, insertTeamRow, teamRecord } from "./team-rows";

const invitationRecord = (i: Invitation): PendingInvitation => ({
  id: i.id,
  organizationId: i.organization_id,
  email: i.email,
  role: i.role,
  teamIds: i.teams.split(" ").filter(Boolean).map(Number),
  invitedBy: i.invited_by,
  createdAt: i.created_at,
  expiresAt: i.expires_at,
});

// Project creation reads the default team from here.
export { defaultTeamId } from "./team-rows";

/** Directory (src/core/ports/directory.ts) on the main database, SQLite and PostgreSQL alike. */
export class KyselyDirectory implements Directory {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    /** The ingest queue (a file of its own on SQLite): a deleted project's pending rows go too. */
    private readonly queue: Kysely<QueueDB>,
  ) {}

  async members(orgId: number): Promise<MemberRecord[]> {
    const [rows, teams] = await Promise.all([
      this.db
        .selectFrom("memberships")
        .innerJoin("users", "users.id", "memberships.user_id")
        .select(["users.id", "users.email", "users.name", "memberships.role", "memberships.created_at"])
        .where("memberships.organization_id", "=", orgId)
        .orderBy("users.email")
        .execute(),
      this.db
        .selectFrom("team_members")
        .innerJoin("teams", "teams.id", "team_members.team_id")
        .select(["team_members.user_id", "teams.slug"])
        .where("teams.organization_id", "=", orgId)
        .orderBy("teams.slug")
        .execute(),
    ]);
    return rows.map((r) => ({
      userId: r.id,
      email: r.email,
      name: r.name,
      role: r.role,
      joinedAt: r.created_at,
      teams: teams.filter((t) => t.user_id === r.id).map((t) => t.slug),
    }));
  }

  async memberRole(orgId: number, userId: number): Promise<Role | null> {
    const row = await this.db
      .selectFrom("memberships")
      .select("role")
      .where("organization_id", "=", orgId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  async membershipsOf(userId: number): Promise<{ org: Organization; role: Role }[]> {
    const rows = await this.db
      .selectFrom("memberships")
      .innerJoin("organizations", "organizations.id", "memberships.organization_id")
      .selectAll("organizations")
      .select("memberships.role")
      .where("memberships.user_id", "=", userId)
      .orderBy("organizations.slug")
      .execute();
    return rows.map(({ role, ...org }) => ({ org, role }));
  }

  async teamProjectIds(orgId: number, userId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("project_teams")
      .innerJoin("team_members", "team_members.team_id", "project_teams.team_id")
      .innerJoin("teams", "teams.id", "project_teams.team_id")
      .select("project_teams.project_id")
      .distinct()
      .where("team_members.user_id", "=", userId)
      .where("teams.organization_id", "=", orgId)
      .execute();
    return rows.map((r) => r.project_id);
  }

  /** Reads the member's role and the owner count in `trx`, after taking the write lock on PostgreSQL. */
  private async current(trx: Kysely<DB>, orgId: number, userId: number): Promise<{ role: Role; owners: number } | null> {
    // Lock the organization's membership rows so two owners demoting each other cannot both pass the check.
    // (SQLite has one writer at a time already.)
    const query = trx.selectFrom("memberships").select(["user_id", "role"]).where("organization_id", "=", orgId);
    const rows = await (this.dialect === "postgres" ? query.forUpdate() : query).execute();
    const mine = rows.find((r) => r.user_id === userId);
    return mine ? { role: mine.role, owners: rows.filter((r) => r.role === "owner").length } : null;
  }

  async setMemberRole(orgId: number, userId: number, role: Role, check: MembershipCheck): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.current(trx, orgId, userId);
      if (!current) return false;
      check(current);
      await trx.updateTable("memberships").set({ role }).where("organization_id", "=", orgId).where("user_id", "=", userId).execute();
      return true;
    });
  }

  async removeMember(orgId: number, userId: number, check: MembershipCheck, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const current = await this.current(trx, orgId, userId);
      if (!current) return false;
      check(current);
      const teamIds = trx.selectFrom("teams").select("id").where("organization_id", "=", orgId);
      const projectIds = trx.selectFrom("projects").select("id").where("organization_id", "=", orgId);
      await trx.deleteFrom("team_members").where("user_id", "=", userId).where("team_id", "in", teamIds).execute();
      await trx
        .updateTable("issues")
        .set({ assignee_id: null })
        .where("assignee_id", "=", userId)
        .where("project_id", "in", projectIds)
        .execute();
      // Organization tokens act with their creator's membership: they end with it.
      await trx
        .updateTable("api_tokens")
        .set({ revoked_at: now })
        .where("user_id", "=", userId)
        .where("organization_id", "=", orgId)
        .where("revoked_at", "is", null)
        .execute();
      await trx.deleteFrom("memberships").where("organization_id", "=", orgId).where("user_id", "=", userId).execute();
      return true;
    });
  }

  async addMember(orgId: number, userId: number, role: Role, teamIds: readonly number[], now: number): Promise<{ added: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("memberships")
        .select("role")
        .where("organization_id", "=", orgId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!existing)
        await trx.insertInto("memberships").values({ organization_id: orgId, user_id: userId, role, created_at: now }).execute();
      const teams = teamIds.length
        ? await trx.selectFrom("teams").select("id").where("organization_id", "=", orgId).where("id", "in", teamIds).execute()
        : [];
      for (const team of teams) {
        const on = await trx
          .selectFrom("team_members")
          .select("user_id")
          .where("team_id", "=", team.id)
          .where("user_id", "=", userId)
          .executeTakeFirst();
        if (!on)
          await trx
            .insertInto("team_members")
            .values({ team_id: team.id, user_id: userId, role: "contributor", created_at: now })
            .execute();
      }
      return { added: !existing };
    });
  }

  async setOpenMembership(orgId: number, open: boolean): Promise<void> {
    await this.db
      .updateTable("organizations")
      .set({ open_membership: open ? 1 : 0 })
      .where("id", "=", orgId)
      .execute();
  }

  async teams(orgId: number): Promise<TeamDetail[]> {
    const [teams, members, projects] = await Promise.all([
      this.db.selectFrom("teams").selectAll().where("organization_id", "=", orgId).orderBy("slug").execute(),
      this.db
        .selectFrom("team_members")
        .innerJoin("teams", "teams.id", "team_members.team_id")
        .innerJoin("users", "users.id", "team_members.user_id")
        .select(["team_members.team_id", "team_members.user_id", "team_members.role", "users.email", "users.name"])
        .where("teams.organization_id", "=", orgId)
        .orderBy("users.email")
        .execute(),
      this.db
        .selectFrom("project_teams")
        .innerJoin("projects", "projects.id", "project_teams.project_id")
        .select(["project_teams.team_id", "projects.id", "projects.slug", "projects.name", "projects.platform"])
        .where("projects.organization_id", "=", orgId)
        .orderBy("projects.slug")
        .execute(),
    ]);
    return teams.map((team) => ({
      team: teamRecord(team),
      members: members.filter((m) => m.team_id === team.id).map((m) => ({ userId: m.user_id, email: m.email, name: m.name, role: m.role })),
      projects: projects.filter((p) => p.team_id === team.id).map((p) => ({ id: p.id, slug: p.slug, name: p.name, platform: p.platform })),
    }));
  }

  async team(orgId: number, slug: string): Promise<TeamRecord | null> {
    const row = await this.db
      .selectFrom("teams")
      .selectAll()
      .where("organization_id", "=", orgId)
      .where("slug", "=", slug)
      .executeTakeFirst();
    return row ? teamRecord(row) : null;
  }

  insertTeam(orgId: number, team: { slug: string; name: string }, adminUserId: number | null, now: number): Promise<TeamRecord | null> {
    return this.db.transaction().execute((trx) => insertTeamRow(trx, orgId, team, adminUserId, now));
  }

  async updateTeam(team: TeamRecord, change: { slug?: string; name?: string }): Promise<TeamRecord | null> {
    if (change.slug !== undefined && change.slug !== team.slug) {
      const taken = await this.team(team.organizationId, change.slug);
      if (taken) return null;
    }
    const values = {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.slug !== undefined ? { slug: change.slug } : {}),
    };
    if (Object.keys(values).length === 0) return team;
    return teamRecord(await this.db.updateTable("teams").set(values).where("id", "=", team.id).returningAll().executeTakeFirstOrThrow());
  }

  async deleteTeam(team: TeamRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const theirs = await trx.selectFrom("project_teams").select("project_id").where("team_id", "=", team.id).execute();
      const fallback = await defaultTeamId(trx, team.organizationId);
      for (const { project_id } of theirs) {
        const others = await trx
          .selectFrom("project_teams")
          .select("team_id")
          .where("project_id", "=", project_id)
          .where("team_id", "<>", team.id)
          .executeTakeFirst();
        if (!others && fallback !== null && fallback !== team.id)
          await trx.insertInto("project_teams").values({ project_id, team_id: fallback }).execute();
      }
      await trx.updateTable("issues").set({ assignee_team_id: null }).where("assignee_team_id", "=", team.id).execute();
      await trx.deleteFrom("teams").where("id", "=", team.id).execute();
    });
  }

  async teamRole(teamId: number, userId: number): Promise<TeamRole | null> {
    const row = await this.db
      .selectFrom("team_members")
      .select("role")
      .where("team_id", "=", teamId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  async addTeamMember(teamId: number, userId: number, role: TeamRole, now: number): Promise<void> {
    const on = await this.teamRole(teamId, userId);
    if (on === null) await this.db.insertInto("team_members").values({ team_id: teamId, user_id: userId, role, created_at: now }).execute();
  }

  async removeTeamMember(teamId: number, userId: number): Promise<boolean> {
    const gone = await this.db.deleteFrom("team_members").where("team_id", "=", teamId).where("user_id", "=", userId).executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  }

  async setTeamRole(teamId: number, userId: number, role: TeamRole): Promise<boolean> {
    const changed = await this.db
      .updateTable("team_members")
      .set({ role })
      .where("team_id", "=", teamId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return Number(changed.numUpdatedRows) > 0;
  }

  async teamsOfProject(projectId: number): Promise<TeamRecord[]> {
    const rows = await this.db
      .selectFrom("teams")
      .innerJoin("project_teams", "project_teams.team_id", "teams.id")
      .selectAll("teams")
      .where("project_teams.project_id", "=", projectId)
      .orderBy("teams.slug")
      .execute();
    return rows.map(teamRecord);
  }

  async addProjectTeam(projectId: number, teamId: number): Promise<void> {
    const has = await this.db
      .selectFrom("project_teams")
      .select("team_id")
      .where("team_id", "=", teamId)
      .where("project_id", "=", projectId)
      .executeTakeFirst();
    if (!has) await this.db.insertInto("project_teams").values({ team_id: teamId, project_id: projectId }).execute();
  }

  async removeProjectTeam(projectId: number, teamId: number, check: (teams: number) => void): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const query = trx.selectFrom("project_teams").select("team_id").where("project_id", "=", projectId);
      const teams = await (this.dialect === "postgres" ? query.forUpdate() : query).execute();
      if (!teams.some((t) => t.team_id === teamId)) return false;
      check(teams.length);
      await trx.deleteFrom("project_teams").where("team_id", "=", teamId).where("project_id", "=", projectId).execute();
      return true;
    });
  }

  async organization(orgId: number): Promise<{ slug: string; name: string } | null> {
    return (await this.db.selectFrom("organizations").select(["slug", "name"]).where("id", "=", orgId).executeTakeFirst()) ?? null;
  }

  async userByEmail(email: string): Promise<{ id: number; email: string; name: string } | null> {
    return (await this.db.selectFrom("users").select(["id", "email", "name"]).where("email", "=", email).executeTakeFirst()) ?? null;
  }

  updateProject(orgId: number, projectId: number, change: { slug?: string; name?: string }) {
    return renameProjectRow(this.db, orgId, projectId, change);
  }

  deleteProject(projectId: number): Promise<void> {
    return deleteProjectRows(this.db, this.queue, projectId);
  }

  async invitations(orgId: number): Promise<PendingInvitation[]> {
    const rows = await this.db
      .selectFrom("invitations")
      .selectAll()
      .where("organization_id", "=", orgId)
      .orderBy("created_at", "desc")
      .execute();
    return rows.map(invitationRecord);
  }

  async putInvitation(invitation: Omit<PendingInvitation, "id">, tokenHash: string): Promise<PendingInvitation> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("invitations")
        .where("organization_id", "=", invitation.organizationId)
        .where("email", "=", invitation.email)
        .execute();
      const row = await trx
        .insertInto("invitations")
        .values({
          organization_id: invitation.organizationId,
          email: invitation.email,
          role: invitation.role,
          teams: invitation.teamIds.join(" "),
          token_hash: tokenHash,
          invited_by: invitation.invitedBy,
          created_at: invitation.createdAt,
          expires_at: invitation.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return invitationRecord(row);
    });
  }

  async invitationByToken(tokenHash: string): Promise<PendingInvitation | null> {
    const row = await this.db.selectFrom("invitations").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    return row ? invitationRecord(row) : null;
  }

  async deleteInvitation(orgId: number, id: number): Promise<boolean> {
    const gone = await this.db.deleteFrom("invitations").where("organization_id", "=", orgId).where("id", "=", id).executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  }
}
