import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import type { User } from "../../src/db/schema";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createProject } from "../../src/core/projects/create-project";
import { listProjects, projectInOrg } from "../../src/core/projects/queries";
import {
  addProjectToTeam,
  addTeamMember,
  createTeam,
  deleteTeam,
  removeProjectFromTeam,
  removeTeamMember,
  teamInOrg,
} from "../../src/core/teams/teams";
import { organizationFor } from "../../src/core/orgs/access";
import { createOrganization } from "../../src/core/orgs/create-org";
import { changeMemberRole, memberOf, removeMember, setOpenMembership } from "../../src/core/orgs/members";

describe.each(DIALECTS)("members and teams on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  const users: Record<string, User> = {};
  const access = (who: string) => organizationFor(ctx, users[who]!, "acme");

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    for (const who of ["olive", "otto", "mona", "ada", "mel", "max"])
      users[who] = await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "olive@example.com" } });
    for (const [who, role] of [
      ["mona", "manager"],
      ["ada", "admin"],
      ["mel", "member"],
      ["max", "member"],
    ] as const)
      await ctx.directory.addMember(org.id, users[who]!.id, role, [], 0);
  });
  afterAll(() => store.cleanup());

  it("gives a new organization a default team holding its owner, and new projects join it", async () => {
    const teams = await ctx.directory.teams((await access("olive")).org.id);
    expect(teams.map((t) => [t.team.slug, t.team.isDefault, t.members.map((m) => [m.email, m.role])])).toEqual([
      ["acme", true, [["olive@example.com", "admin"]]],
    ]);
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "web" } });
    expect((await ctx.directory.teamsOfProject(project.id)).map((t) => t.slug)).toEqual(["acme"]);
  });

  it("puts a project created for a named team in that team only", async () => {
    await createTeam({ ctx, input: { access: await access("ada"), creatorId: users.ada!.id, team: { slug: "backend" } } });
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "api", team: "backend" } });
    expect((await ctx.directory.teamsOfProject(project.id)).map((t) => t.slug)).toEqual(["backend"]);
    await expect(createProject({ ctx, input: { org: "acme", slug: "nope", team: "missing" } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("keeps the last owner an owner and a member of the organization", async () => {
    const olive = await access("olive");
    await expect(changeMemberRole({ ctx, input: { access: olive, userId: users.olive!.id, role: "member" } })).rejects.toThrow(
      /last owner/,
    );
    await expect(removeMember({ ctx, input: { access: olive, actorId: users.olive!.id, userId: users.olive!.id } })).rejects.toThrow(
      /last owner/,
    );
    expect((await memberOf(ctx, olive.org.id, users.olive!.id)).role).toBe("owner");
  });

  it("lets nobody give a role above their own, and only owners touch owners", async () => {
    const mona = await access("mona");
    await expect(changeMemberRole({ ctx, input: { access: mona, userId: users.mel!.id, role: "owner" } })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(changeMemberRole({ ctx, input: { access: mona, userId: users.olive!.id, role: "member" } })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect((await changeMemberRole({ ctx, input: { access: mona, userId: users.mel!.id, role: "admin" } })).role).toBe("admin");
    expect((await changeMemberRole({ ctx, input: { access: mona, userId: users.mel!.id, role: "member" } })).role).toBe("member");
    await expect(changeMemberRole({ ctx, input: { access: mona, userId: users.mel!.id, role: "boss" } })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("lets a second owner be made, after which the first may leave", async () => {
    const olive = await access("olive");
    await ctx.directory.addMember(olive.org.id, users.otto!.id, "owner", [], 0);
    await removeMember({ ctx, input: { access: olive, actorId: users.olive!.id, userId: users.olive!.id } });
    await expect(access("olive")).rejects.toMatchObject({ code: "not_found" });
    const teams = await ctx.directory.teams(olive.org.id);
    expect(teams.flatMap((t) => t.members.map((m) => m.email))).not.toContain("olive@example.com");
    await ctx.directory.addMember(olive.org.id, users.olive!.id, "owner", [], 0);
  });

  it("shows members every project with open membership and only their teams' projects without it", async () => {
    const otto = await access("otto");
    expect((await listProjects(ctx, await access("max"))).map((p) => p.slug)).toEqual(["api", "web"]);
    await setOpenMembership(ctx, otto, false);
    const max = await access("max");
    expect(max.projectIds).toEqual(new Set());
    expect(await listProjects(ctx, max)).toEqual([]);
    await expect(projectInOrg(ctx, max, "web")).rejects.toMatchObject({ code: "not_found" });
    // Managers and owners keep seeing everything.
    expect((await access("mona")).projectIds).toBeNull();
    // Joining a team oneself needs open membership; a team admin or an admin may add you.
    const backend = await teamInOrg(ctx, max.org.id, "backend");
    await expect(
      addTeamMember({ ctx, input: { access: max, actorId: users.max!.id, team: backend, userId: users.max!.id } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await addTeamMember({ ctx, input: { access: await access("ada"), actorId: users.ada!.id, team: backend, userId: users.max!.id } });
    expect((await listProjects(ctx, await access("max"))).map((p) => p.slug)).toEqual(["api"]);
    await removeTeamMember({ ctx, input: { access: await access("max"), actorId: users.max!.id, team: backend, userId: users.max!.id } });
    expect(await listProjects(ctx, await access("max"))).toEqual([]);
    await setOpenMembership(ctx, otto, true);
    expect((await access("max")).projectIds).toBeNull();
  });

  it("lets a member add someone to a team only as that team's admin", async () => {
    const mel = await access("mel");
    const backend = await teamInOrg(ctx, mel.org.id, "backend");
    await expect(
      addTeamMember({ ctx, input: { access: mel, actorId: users.mel!.id, team: backend, userId: users.max!.id } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await addTeamMember({ ctx, input: { access: mel, actorId: users.mel!.id, team: backend, userId: users.mel!.id } });
    await ctx.directory.setTeamRole(backend.id, users.mel!.id, "admin");
    await addTeamMember({ ctx, input: { access: mel, actorId: users.mel!.id, team: backend, userId: users.max!.id } });
    expect(await ctx.directory.teamRole(backend.id, users.max!.id)).toBe("contributor");
  });

  it("keeps a project in at least one team, and gives a deleted team's projects to the default team", async () => {
    const ada = await access("ada");
    const backend = await teamInOrg(ctx, ada.org.id, "backend");
    const api = await projectInOrg(ctx, ada, "api");
    await expect(removeProjectFromTeam(ctx, backend, api)).rejects.toThrow(/no other team/);
    const ops = await createTeam({ ctx, input: { access: ada, creatorId: users.ada!.id, team: { slug: "ops", name: "Operations" } } });
    await addProjectToTeam(ctx, ops, api);
    await removeProjectFromTeam(ctx, backend, api);
    await deleteTeam(ctx, ops);
    expect((await ctx.directory.teamsOfProject(api.id)).map((t) => t.slug)).toEqual(["acme"]);
    await expect(deleteTeam(ctx, await teamInOrg(ctx, ada.org.id, "acme"))).rejects.toThrow(/default team/);
    await expect(createTeam({ ctx, input: { access: ada, creatorId: users.ada!.id, team: { slug: "backend" } } })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("gave the organizations that existed before teams a default team with their projects (migration 0017)", async () => {
    const internal = await store.db.selectFrom("organizations").select("id").where("is_internal", "=", 1).executeTakeFirstOrThrow();
    const [team] = await ctx.directory.teams(internal.id);
    expect(team).toMatchObject({ team: { isDefault: true }, projects: [expect.objectContaining({ slug: expect.any(String) })] });
  });

  it("removes a member, who then no longer sees the organization", async () => {
    const otto = await access("otto");
    await removeMember({ ctx, input: { access: otto, actorId: users.otto!.id, userId: users.max!.id } });
    await expect(access("max")).rejects.toMatchObject({ code: "not_found" });
    await expect(removeMember({ ctx, input: { access: otto, actorId: users.otto!.id, userId: users.max!.id } })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
