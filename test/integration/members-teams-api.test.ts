import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { sentryCli } from "../support/clients";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Issue 12, item 1: members, teams and projects in Sentry's web API paths and shapes, through the
 * real router on a loopback port, on both databases; sentry-cli's `projects list` sees the result.
 */
describe.each(DIALECTS)("the members and teams web API on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  const users: Record<string, User> = {};
  const tokens: Record<string, string> = {};

  async function call(who: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${api.base}/api/0${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
  }
  const get = async <T = Record<string, unknown>>(who: string, path: string) => (await call(who, "GET", path)).json as T;

  beforeAll(async () => {
    setLogLevel("error");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    for (const who of ["olive", "mona", "ada", "mel", "max", "out"]) {
      users[who] = await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123", name: who.toUpperCase() } });
      tokens[who] = (await createToken({ ctx, input: { user: `${who}@example.com` } })).token;
    }
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "olive@example.com" } });
    await createOrganization({ ctx, input: { slug: "other", owner: "out@example.com" } });
    for (const [who, role] of [
      ["mona", "manager"],
      ["ada", "admin"],
      ["mel", "member"],
      ["max", "member"],
    ] as const)
      await ctx.directory.addMember(org.id, users[who]!.id, role, [], Date.UTC(2026, 0, 2));
    await createProject({ ctx, input: { org: "acme", slug: "web" } });
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await store.cleanup();
  });

  it("lists members in Sentry's shape, with their teams and team roles", async () => {
    const members = await get<Record<string, unknown>[]>("mel", "/organizations/acme/members/");
    expect(members.map((m) => [m.email, m.orgRole])).toEqual([
      ["ada@example.com", "admin"],
      ["max@example.com", "member"],
      ["mel@example.com", "member"],
      ["mona@example.com", "manager"],
      ["olive@example.com", "owner"],
    ]);
    const olive = members.find((m) => m.email === "olive@example.com")!;
    expect(olive).toMatchObject({
      id: String(users.olive!.id),
      name: "OLIVE",
      role: "owner",
      roleName: "Owner",
      pending: false,
      expired: false,
      user: { id: String(users.olive!.id), email: "olive@example.com", name: "OLIVE" },
      teams: ["acme"],
      teamRoles: [{ teamSlug: "acme", role: "admin" }],
    });
    expect(typeof olive.dateCreated).toBe("string");
    expect(await get("mel", "/organizations/acme/members/me/")).toMatchObject({ email: "mel@example.com", orgRole: "member" });
    expect((await call("out", "GET", "/organizations/acme/members/")).status).toBe(404);
  });

  it("changes roles with orgRole (or the legacy role) within the rules, for member managers only", async () => {
    const path = `/organizations/acme/members/${users.max!.id}/`;
    expect(await call("mona", "PUT", path, { orgRole: "admin" })).toMatchObject({ status: 200, json: { orgRole: "admin", role: "admin" } });
    expect(await call("mona", "PUT", path, { role: "member" })).toMatchObject({ status: 200, json: { orgRole: "member" } });
    // A manager gives no role above their own; an admin manages no members at all.
    expect((await call("mona", "PUT", path, { orgRole: "owner" })).status).toBe(403);
    expect((await call("ada", "PUT", path, { orgRole: "admin" })).status).toBe(403);
    expect((await call("mona", "PUT", path, { orgRole: "emperor" })).status).toBe(400);
    expect((await call("mona", "PUT", `/organizations/acme/members/${users.olive!.id}/`, { orgRole: "member" })).status).toBe(403);
    expect((await call("mona", "PUT", "/organizations/acme/members/99999/", { orgRole: "member" })).status).toBe(404);
  });

  it("lets anyone leave (DELETE …/members/me/) but only member managers remove someone else", async () => {
    const extra = await createUser({ ctx, input: { email: "temp@example.com", password: "password-123" } });
    tokens.temp = (await createToken({ ctx, input: { user: "temp@example.com" } })).token;
    const org = (await get("olive", "/organizations/acme/")).id as string;
    await ctx.directory.addMember(Number(org), extra.id, "member", [], 0);
    expect((await call("mel", "DELETE", `/organizations/acme/members/${extra.id}/`)).status).toBe(403);
    expect((await call("temp", "DELETE", "/organizations/acme/members/me/")).status).toBe(204);
    expect((await call("temp", "GET", "/organizations/acme/members/")).status).toBe(404);
    await ctx.directory.addMember(Number(org), extra.id, "member", [], 0);
    expect((await call("mona", "DELETE", `/organizations/acme/members/${extra.id}/`)).status).toBe(204);
    // The last owner stays.
    expect(await call("olive", "DELETE", "/organizations/acme/members/me/")).toMatchObject({ status: 400 });
  });

  it("asks a token for the second row's scope too: a manager's org:read token may leave but not remove", async () => {
    const boss = await createUser({ ctx, input: { email: "boss@example.com", password: "password-123" } });
    const org = Number((await get("olive", "/organizations/acme/")).id);
    await ctx.directory.addMember(org, boss.id, "manager", [], 0);
    tokens.boss = (await createToken({ ctx, input: { user: "boss@example.com", scopes: ["org:read", "member:read"] } })).token;
    expect((await call("boss", "DELETE", `/organizations/acme/members/${users.max!.id}/`)).status).toBe(403);
    expect((await call("boss", "DELETE", `/organizations/acme/members/${boss.id}/`)).status).toBe(204);
    expect(await ctx.directory.memberRole(org, users.max!.id)).toBe("member");
  });

  it("creates, shows, renames and deletes teams with team:write and team:delete", async () => {
    expect((await call("mel", "POST", "/organizations/acme/teams/", { slug: "sneaky" })).status).toBe(403);
    const created = await call("ada", "POST", "/organizations/acme/teams/", { name: "Back End" });
    expect(created).toMatchObject({
      status: 201,
      json: { slug: "back-end", name: "Back End", isMember: true, teamRole: "admin", memberCount: 1, hasAccess: true },
    });
    expect(typeof (created.json as { id: unknown }).id).toBe("string");
    expect((await call("ada", "POST", "/organizations/acme/teams/", { slug: "back-end" })).status).toBe(409);
    const teams = await get<{ slug: string; isMember: boolean; projects?: { slug: string }[] }[]>(
      "mel",
      "/organizations/acme/teams/?expand=projects",
    );
    expect(teams.map((t) => [t.slug, t.isMember, t.projects?.map((p) => p.slug)])).toEqual([
      ["acme", false, ["web"]],
      ["back-end", false, []],
    ]);
    expect(await call("ada", "PUT", "/teams/acme/back-end/", { name: "Backend", slug: "backend" })).toMatchObject({
      status: 200,
      json: { slug: "backend", name: "Backend" },
    });
    expect(await get("mel", "/teams/acme/backend/")).toMatchObject({ slug: "backend", projects: [] });
    expect((await call("mel", "DELETE", "/teams/acme/backend/")).status).toBe(403);
    expect((await call("ada", "DELETE", "/teams/acme/acme/")).status).toBe(400);
    await call("ada", "POST", "/organizations/acme/teams/", { slug: "doomed" });
    expect((await call("ada", "DELETE", "/teams/acme/doomed/")).status).toBe(204);
    expect((await call("ada", "GET", "/teams/acme/doomed/")).status).toBe(404);
  });

  it("joins and leaves teams, and adds others only for team admins and organization admins", async () => {
    expect(await call("mel", "POST", "/organizations/acme/members/me/teams/backend/")).toMatchObject({
      status: 201,
      json: { slug: "backend", isMember: true, teamRole: "contributor", memberCount: 2 },
    });
    // A contributor adds nobody else; the team's admin (ada) does.
    expect((await call("mel", "POST", `/organizations/acme/members/${users.max!.id}/teams/backend/`)).status).toBe(403);
    expect((await call("ada", "POST", `/organizations/acme/members/${users.max!.id}/teams/backend/`)).status).toBe(201);
    expect((await get("max", `/organizations/acme/members/me/`)).teams).toEqual(["backend"]);
    expect(await call("mel", "DELETE", "/organizations/acme/members/me/teams/backend/")).toMatchObject({
      status: 200,
      json: { isMember: false, memberCount: 2 },
    });
  });

  it("creates a project in a team, gives it to and takes it from teams, and sentry-cli lists it", async () => {
    expect((await call("mel", "POST", "/teams/acme/backend/projects/", { name: "api" })).status).toBe(403);
    expect(await call("ada", "POST", "/teams/acme/backend/projects/", { name: "API", slug: "api", platform: "node" })).toMatchObject({
      status: 201,
      json: { slug: "api", name: "API", platform: "node" },
    });
    expect((await get<{ slug: string }[]>("mel", "/teams/acme/backend/projects/")).map((p) => p.slug)).toEqual(["api"]);
    expect(await call("ada", "POST", "/projects/acme/api/teams/acme/")).toMatchObject({
      status: 201,
      json: { slug: "api", teams: [{ slug: "acme" }, { slug: "backend" }] },
    });
    expect(await call("ada", "DELETE", "/projects/acme/api/teams/backend/")).toMatchObject({
      status: 200,
      json: { teams: [{ slug: "acme" }] },
    });
    // Its last team keeps it.
    expect((await call("ada", "DELETE", "/projects/acme/api/teams/acme/")).status).toBe(400);
    expect((await call("mel", "POST", "/projects/acme/api/teams/backend/")).status).toBe(403);
    const cli = await sentryCli(api.base, tokens.mel!, ["projects", "list", "--org", "acme"]);
    expect(cli.code, cli.out).toBe(0);
    expect(cli.out).toMatch(/\bapi\b/);
    expect(cli.out).toMatch(/\bweb\b/);
  });

  it("renames a project with name and slug (project:write) besides the grouping upgrade", async () => {
    expect((await call("mel", "PUT", "/projects/acme/api/", { name: "Nope" })).status).toBe(403);
    expect(await call("ada", "PUT", "/projects/acme/api/", { name: "Public API", slug: "public-api" })).toMatchObject({
      status: 200,
      json: { slug: "public-api", name: "Public API" },
    });
    expect((await call("ada", "PUT", "/projects/acme/public-api/", { slug: "web" })).status).toBe(409);
    expect((await call("ada", "PUT", "/projects/acme/public-api/", { colour: "red" })).status).toBe(400);
    expect((await call("ada", "GET", "/projects/acme/public-api/")).status).toBe(200);
  });

  it("assigns an issue to a team (assignedTo team:<id>) and finds it with assigned:#team", async () => {
    const web = await store.db.selectFrom("projects").select("id").where("slug", "=", "web").executeTakeFirstOrThrow();
    const eventId = newEventId();
    await store.queue
      .insertInto("ingest_queue")
      .values({
        project_id: web.id,
        key_id: 0,
        endpoint: "envelope",
        received_at: Date.now(),
        body: buildEnvelope({ event_id: eventId }, [
          {
            type: "event",
            payload: JSON.stringify({
              event_id: eventId,
              platform: "node",
              level: "error",
              exception: { values: [{ type: "TeamError", value: "x" }] },
            }),
          },
        ]),
      })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    const [issue] = await get<{ id: string }[]>("mel", "/projects/acme/web/issues/?query=TeamError");
    const team = await get<{ id: string }>("mel", "/teams/acme/backend/");
    const assigned = await call("mel", "PUT", `/organizations/acme/issues/${issue!.id}/`, { assignedTo: `team:${team.id}` });
    expect(assigned.status).toBe(200);
    expect(await get("mel", `/organizations/acme/issues/${issue!.id}/`)).toMatchObject({
      assignedTo: { type: "team", id: team.id, name: "backend" },
    });
    const search = async (query: string) =>
      (await get<{ id: string }[]>("mel", `/projects/acme/web/issues/?query=${encodeURIComponent(query)}`)).map((i) => i.id);
    expect(await search("assigned:#backend")).toEqual([issue!.id]);
    expect(await search("assigned:#acme")).toEqual([]);
    expect(await search("is:assigned")).toEqual([issue!.id]);
    expect(await search("is:unassigned TeamError")).toEqual([]);
    // A team of another organization is refused; a person replaces the team.
    const other = await store.db.selectFrom("teams").select("id").where("slug", "=", "other").executeTakeFirstOrThrow();
    expect((await call("mel", "PUT", `/organizations/acme/issues/${issue!.id}/`, { assignedTo: `team:${other.id}` })).status).toBe(400);
    await call("mel", "PUT", `/organizations/acme/issues/${issue!.id}/`, { assignedTo: `user:${users.mel!.id}` });
    expect(await get("mel", `/organizations/acme/issues/${issue!.id}/`)).toMatchObject({
      assignedTo: { type: "user", email: "mel@example.com" },
    });
    expect(await search("assigned:#backend")).toEqual([]);
  });

  it("deletes a project with all its data, the events still in the ingest queue included", async () => {
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "gone" } });
    const event = (eventId: string) =>
      buildEnvelope({ event_id: eventId }, [
        {
          type: "event",
          payload: JSON.stringify({
            event_id: eventId,
            platform: "node",
            level: "error",
            timestamp: Date.now() / 1000,
            exception: { values: [{ type: "Error", value: "boom" }] },
            tags: { region: "eu" },
            user: { id: "u1" },
          }),
        },
      ]);
    const enqueue = (body: Buffer) =>
      store.queue
        .insertInto("ingest_queue")
        .values({ project_id: project.id, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
        .execute();
    await enqueue(event(newEventId()));
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    await enqueue(event(newEventId()));
    const count = async (table: "events" | "issues" | "project_keys" | "project_teams" | "outcomes") =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .where("project_id", "=", project.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count("events")).toBe(1);
    expect(await count("issues")).toBe(1);

    expect((await call("mel", "DELETE", "/projects/acme/gone/")).status).toBe(403);
    expect((await call("ada", "DELETE", "/projects/acme/gone/")).status).toBe(204);
    expect((await call("ada", "GET", "/projects/acme/gone/")).status).toBe(404);
    for (const table of ["events", "issues", "project_keys", "project_teams", "outcomes"] as const)
      expect(await count(table), table).toBe(0);
    const queued = await store.queue.selectFrom("ingest_queue").select("id").where("project_id", "=", project.id).execute();
    expect(queued).toEqual([]);
    expect(await store.db.selectFrom("projects").select("id").where("id", "=", project.id).executeTakeFirst()).toBeUndefined();
    // An envelope its key let in just before (ingest caches keys for seconds) does not hold the digest up.
    if (dialect === "sqlite") {
      await enqueue(event(newEventId()));
      await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
      expect(await store.queue.selectFrom("ingest_queue").select("id").execute()).toEqual([]);
      expect(await count("events")).toBe(0);
    }
  });
});
