import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Directory, TeamRecord } from "../../src/core/ports/directory";
import type { OrgWorld } from "../support/org-world";

export interface DirectoryFixture {
  store: Directory;
  /** `memberId` is a member of `orgId`; `teamId` there has nobody and no project yet. */
  world: OrgWorld;
  orgSlug: string;
  /** The default team of `world.orgId`. */
  defaultTeamId: number;
  addIssue(projectId: number, assignee: { userId: number | null; teamId: number | null }): Promise<number>;
  assignment(issueId: number): Promise<{ userId: number | null; teamId: number | null }>;
  projectExists(projectId: number): Promise<boolean>;
  /** An API token of the user: an organization token, or a personal one for null. */
  addToken(userId: number, organizationId: number | null): Promise<number>;
  revokedAt(tokenId: number): Promise<number | null>;
  cleanup(): Promise<void>;
}

const refuse = () => {
  throw new Error("refused");
};
const allow = () => undefined;

/** What every Directory (src/core/ports/directory.ts) does. */
export function directoryContract(name: string, make: () => Promise<DirectoryFixture>): void {
  describe(name, () => {
    let f: DirectoryFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("adds members once, onto the organization's teams only, and reads them back", async () => {
      const { orgId, otherOrgId, memberId, outsiderId, teamId, teamSlug, otherOrgTeamId } = f.world;
      expect(await f.store.addMember(orgId, outsiderId, "admin", [teamId, otherOrgTeamId], 1_000)).toEqual({ added: true });
      expect(await f.store.addMember(orgId, outsiderId, "owner", [teamId], 2_000)).toEqual({ added: false });
      expect(await f.store.memberRole(orgId, outsiderId)).toBe("admin");
      expect(await f.store.memberRole(otherOrgId, outsiderId)).toBeNull();
      const members = await f.store.members(orgId);
      expect(members.find((m) => m.userId === outsiderId)).toEqual({
        userId: outsiderId,
        email: expect.stringContaining("outsider@"),
        name: expect.any(String),
        role: "admin",
        joinedAt: 1_000,
        teams: [teamSlug],
      });
      expect(members.find((m) => m.userId === memberId)).toMatchObject({ role: "member", teams: [] });
      expect(await f.store.teamRole(teamId, outsiderId)).toBe("contributor");
      expect(await f.store.teamRole(otherOrgTeamId, outsiderId)).toBeNull();
      await f.store.addMember(otherOrgId, outsiderId, "member", [], 0);
      expect((await f.store.membershipsOf(outsiderId)).map((m) => [m.org.id, m.role])).toEqual([
        [orgId, "admin"],
        [otherOrgId, "member"],
      ]);
      await f.store.setOpenMembership(orgId, false);
      expect((await f.store.membershipsOf(outsiderId))[0]?.org).toMatchObject({ slug: f.orgSlug, open_membership: 0 });
      await f.store.setOpenMembership(orgId, true);
      expect((await f.store.membershipsOf(outsiderId))[0]?.org.open_membership).toBe(1);
    });

    it("changes and ends memberships after the check, with what hangs on them", async () => {
      const { orgId, memberId, outsiderId, projectId, teamId } = f.world;
      const seen: { role: string; owners: number }[] = [];
      expect(await f.store.setMemberRole(orgId, memberId, "owner", (c) => void seen.push(c))).toBe(true);
      await expect(f.store.setMemberRole(orgId, memberId, "member", refuse)).rejects.toThrow("refused");
      expect(await f.store.memberRole(orgId, memberId)).toBe("owner");
      expect(await f.store.setMemberRole(orgId, memberId + outsiderId + 1_000, "owner", allow)).toBe(false);
      expect(await f.store.removeMember(f.world.otherOrgId, memberId, allow, 0)).toBe(false);
      expect(seen).toEqual([{ role: "member", owners: 0 }]);

      const issue = await f.addIssue(projectId, { userId: outsiderId, teamId: null });
      const tokens = [
        await f.addToken(outsiderId, orgId),
        await f.addToken(outsiderId, null),
        await f.addToken(outsiderId, f.world.otherOrgId),
      ];
      await expect(f.store.removeMember(orgId, outsiderId, refuse, 0)).rejects.toThrow("refused");
      expect(await f.revokedAt(tokens[0] ?? 0)).toBeNull();
      expect(await f.store.removeMember(orgId, outsiderId, (c) => expect(c).toEqual({ role: "admin", owners: 1 }), 7_000)).toBe(true);
      expect(await f.store.memberRole(orgId, outsiderId)).toBeNull();
      expect(await f.store.teamRole(teamId, outsiderId)).toBeNull();
      expect(await f.assignment(issue)).toEqual({ userId: null, teamId: null });
      // Organization tokens act with their creator's membership: they end with it, and only they.
      expect(await Promise.all(tokens.map((id) => f.revokedAt(id)))).toEqual([7_000, null, null]);
    });

    it("creates, renames and reads teams with their members and projects", async () => {
      const { orgId, otherOrgId, memberId, projectId, teamSlug } = f.world;
      const ops = await f.store.insertTeam(orgId, { slug: "ops", name: "Ops" }, memberId, 3_000);
      expect(ops).toEqual({ id: expect.any(Number), organizationId: orgId, slug: "ops", name: "Ops", isDefault: false, createdAt: 3_000 });
      expect(await f.store.insertTeam(orgId, { slug: "ops", name: "Again" }, null, 3_000)).toBeNull();
      expect(await f.store.insertTeam(otherOrgId, { slug: "ops", name: "Theirs" }, null, 3_000)).not.toBeNull();
      if (!ops) return;
      expect(await f.store.team(orgId, "ops")).toEqual(ops);
      expect(await f.store.team(orgId, "nope")).toBeNull();
      expect(await f.store.teamRole(ops.id, memberId)).toBe("admin");
      expect(await f.store.updateTeam(ops, { slug: teamSlug })).toBeNull();
      const renamed = await f.store.updateTeam(ops, { slug: "sre", name: "SRE" });
      expect(renamed).toEqual({ ...ops, slug: "sre", name: "SRE" });
      expect(await f.store.updateTeam(ops, {})).toEqual(ops);

      await f.store.addProjectTeam(projectId, ops.id);
      await f.store.addProjectTeam(projectId, ops.id);
      const detail = (await f.store.teams(orgId)).find((t) => t.team.id === ops.id);
      expect(detail).toEqual({
        team: { ...ops, slug: "sre", name: "SRE" },
        members: [{ userId: memberId, email: expect.any(String), name: expect.any(String), role: "admin" }],
        projects: [{ id: projectId, slug: f.world.projectSlug, name: f.world.projectSlug, platform: expect.any(String) }],
      });
      expect((await f.store.teams(orgId)).map((t) => t.team.isDefault)).toContain(true);
    });

    it("puts people on teams with a role, and teams on projects", async () => {
      const { orgId, memberId, outsiderId, projectId, otherProjectId, teamId } = f.world;
      await f.store.addTeamMember(teamId, memberId, "contributor", 0);
      await f.store.addTeamMember(teamId, memberId, "admin", 0);
      expect(await f.store.teamRole(teamId, memberId)).toBe("contributor");
      expect(await f.store.setTeamRole(teamId, memberId, "admin")).toBe(true);
      expect(await f.store.teamRole(teamId, memberId)).toBe("admin");
      expect(await f.store.setTeamRole(teamId, outsiderId, "admin")).toBe(false);

      await f.store.addProjectTeam(otherProjectId, teamId);
      expect((await f.store.teamProjectIds(orgId, memberId)).sort((a, b) => a - b)).toEqual(
        [projectId, otherProjectId].sort((a, b) => a - b),
      );
      expect(await f.store.teamProjectIds(f.world.otherOrgId, memberId)).toEqual([]);
      expect((await f.store.teamsOfProject(otherProjectId)).map((t) => t.id)).toEqual([teamId]);
      await f.store.addProjectTeam(otherProjectId, f.defaultTeamId);
      await expect(f.store.removeProjectTeam(otherProjectId, teamId, refuse)).rejects.toThrow("refused");
      expect(await f.store.removeProjectTeam(otherProjectId, teamId, (n) => expect(n).toBe(2))).toBe(true);
      expect(await f.store.removeProjectTeam(otherProjectId, teamId, allow)).toBe(false);
      expect((await f.store.teamsOfProject(otherProjectId)).map((t) => t.id)).toEqual([f.defaultTeamId]);

      expect(await f.store.removeTeamMember(teamId, memberId)).toBe(true);
      expect(await f.store.removeTeamMember(teamId, memberId)).toBe(false);
      expect(await f.store.teamProjectIds(orgId, memberId)).not.toContain(otherProjectId);
    });

    it("deletes a team: its lone projects join the default team, its assignments end", async () => {
      const { orgId, projectId } = f.world;
      const team = (await f.store.insertTeam(orgId, { slug: "gone", name: "Gone" }, null, 0)) as TeamRecord;
      await f.store.addProjectTeam(projectId, team.id);
      const issue = await f.addIssue(projectId, { userId: null, teamId: team.id });
      const before = (await f.store.teamsOfProject(projectId)).filter((t) => t.id !== team.id);
      await f.store.deleteTeam(team);
      expect(await f.store.team(orgId, "gone")).toBeNull();
      expect(await f.store.teamsOfProject(projectId)).toEqual(before);
      expect(await f.assignment(issue)).toEqual({ userId: null, teamId: null });

      const lone = (await f.store.insertTeam(orgId, { slug: "lone", name: "Lone" }, null, 0)) as TeamRecord;
      const solo = f.world.otherProjectId;
      for (const t of await f.store.teamsOfProject(solo)) await f.store.removeProjectTeam(solo, t.id, allow);
      await f.store.addProjectTeam(solo, lone.id);
      await f.store.deleteTeam(lone);
      expect((await f.store.teamsOfProject(solo)).map((t) => t.id)).toEqual([f.defaultTeamId]);
    });

    it("renames and deletes projects, and reads organizations and users", async () => {
      const { orgId, otherOrgId, projectId, otherProjectId, otherOrgProjectId } = f.world;
      expect(await f.store.updateProject(orgId, projectId, { slug: "renamed", name: "Renamed" })).toEqual({
        id: projectId,
        slug: "renamed",
        name: "Renamed",
      });
      expect(await f.store.updateProject(orgId, otherProjectId, { slug: "renamed" })).toBeNull();
      expect(await f.store.updateProject(otherOrgId, otherOrgProjectId, { slug: "renamed" })).toMatchObject({ slug: "renamed" });

      await f.store.deleteProject(otherProjectId);
      expect(await f.projectExists(otherProjectId)).toBe(false);
      expect(await f.projectExists(projectId)).toBe(true);
      expect(await f.store.teamsOfProject(otherProjectId)).toEqual([]);

      expect(await f.store.organization(orgId)).toEqual({ slug: f.orgSlug, name: f.orgSlug });
      expect(await f.store.organization(orgId + otherOrgId + 1_000)).toBeNull();
      const member = await f.store.userByEmail(`${f.orgSlug.replace(/acme$/, "")}member@example.com`);
      expect(member).toEqual({ id: f.world.memberId, email: expect.any(String), name: expect.any(String) });
      expect(await f.store.userByEmail("nobody@example.com")).toBeNull();
    });

    it("keeps one pending invitation per address, found by its token", async () => {
      const { orgId, otherOrgId, memberId, teamId } = f.world;
      const invite = { organizationId: orgId, email: "new@example.com", role: "admin" as const, teamIds: [teamId], invitedBy: memberId };
      const first = await f.store.putInvitation({ ...invite, createdAt: 1_000, expiresAt: 9_000 }, "t1");
      expect(first).toEqual({ id: expect.any(Number), ...invite, createdAt: 1_000, expiresAt: 9_000 });
      const again = await f.store.putInvitation({ ...invite, teamIds: [], invitedBy: null, createdAt: 2_000, expiresAt: 9_000 }, "t2");
      const other = await f.store.putInvitation({ ...invite, email: "b@example.com", createdAt: 3_000, expiresAt: 9_000 }, "t3");
      await f.store.putInvitation({ ...invite, organizationId: otherOrgId, teamIds: [], createdAt: 0, expiresAt: 9_000 }, "t4");
      expect(await f.store.invitations(orgId)).toEqual([other, again]);
      expect(await f.store.invitationByToken("t1")).toBeNull();
      expect(await f.store.invitationByToken("t2")).toEqual(again);
      expect(await f.store.deleteInvitation(otherOrgId, again.id)).toBe(false);
      expect(await f.store.deleteInvitation(orgId, again.id)).toBe(true);
      expect(await f.store.invitations(orgId)).toEqual([other]);
    });
  });
}
