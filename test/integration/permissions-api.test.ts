import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import type { ProjectKey, Role } from "../../src/db/schema";
import { ACCOUNT_ROUTES, handleApi, ROUTES } from "../../src/server/api/router";
import { setLogLevel } from "../../src/server/log";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

describe.each(DIALECTS)("the web API asks the permission table on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: Server;
  let base: string;
  let key: ProjectKey;
  const tokens = {} as Record<Role | "outsider", string>;

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    for (const who of ["owner", "admin", "member", "outsider"] as const) {
      await createUser({ ctx, input: { email: `${who}@example.com`, password: "password-123" } });
      tokens[who] = (await createToken({ ctx, input: { user: `${who}@example.com` } })).token;
    }
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    await createOrganization({ ctx, input: { slug: "elsewhere", owner: "outsider@example.com" } });
    for (const role of ["admin", "member"] as const) {
      const user = await store.db.selectFrom("users").select("id").where("email", "=", `${role}@example.com`).executeTakeFirstOrThrow();
      await store.db
        .insertInto("memberships")
        .values({ organization_id: org.id, user_id: user.id, role, created_at: Date.now() })
        .execute();
    }
    ({ key } = await createProject({ ctx, input: { org: "acme", slug: "web" } }));
    server = createServer((req, res) => {
      handleApi(ctx, req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.cleanup();
  });

  const call = async (who: Role | "outsider", method: string, path: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const keyPath = () => `/api/0/projects/acme/web/keys/${key.public_key}/`;

  it("answers a member's key change with 403 and Sentry's detail, and changes nothing", async () => {
    expect(await call("member", "PUT", keyPath(), { isActive: false })).toEqual({ status: 403, body: { detail: NOT_ALLOWED } });
    const row = await store.db.selectFrom("project_keys").select("is_active").where("id", "=", key.id).executeTakeFirstOrThrow();
    expect(row.is_active).toBe(1);
  });

  it("lets a member read the keys an admin may change", async () => {
    const { status, body } = await call("member", "GET", "/api/0/projects/acme/web/keys/");
    expect(status).toBe(200);
    expect(body).toEqual([expect.objectContaining({ public: key.public_key, isActive: true })]);
  });

  it("lets an admin disable and re-enable a key", async () => {
    expect(await call("admin", "PUT", keyPath(), { isActive: false })).toMatchObject({ status: 200, body: { isActive: false } });
    expect(await call("owner", "PUT", keyPath(), { isActive: true })).toMatchObject({ status: 200, body: { isActive: true } });
  });

  it("lets a member triage: the issue route answers for the issue, not with a refusal", async () => {
    expect(await call("member", "PUT", "/api/0/organizations/acme/issues/999999/", { status: "resolved" })).toEqual({
      status: 404,
      body: { detail: expect.stringContaining("999999") },
    });
  });

  it("answers a user of another organization 404, as if the organization did not exist, on reads and writes", async () => {
    const missing = { status: 404, body: { detail: "organization 'acme' does not exist" } };
    expect(await call("outsider", "GET", "/api/0/projects/acme/web/keys/")).toEqual(missing);
    expect(await call("outsider", "PUT", keyPath(), { isActive: false })).toEqual(missing);
    expect(await call("outsider", "GET", "/api/0/organizations/acme/projects/")).toEqual(missing);
  });

  it("refuses before reading the body: a member's malformed change is still a 403", async () => {
    const response = await fetch(base + keyPath(), {
      method: "PUT",
      headers: { authorization: `Bearer ${tokens.member}` },
      body: "{not json",
    });
    expect(response.status).toBe(403);
  });

  /**
   * Every route, every identifier in its path: one that cannot exist (a NUL, a bad escape, a
   * number past PostgreSQL's integer, an overlong string) is a 404 on both databases, never a
   * 400 or 500 (issue #38). The parameters before it name real rows, so it is the one looked up.
   * Bad escapes beyond `%FF%FE` are in src/core/identifiers.test.ts.
   */
  const HOSTILE = ["%00", "a%00b", "99999999999999999999", "x".repeat(500), "%FF%FE"];
  const realParams = (path: string): string[] =>
    path.startsWith("/projects/") ? ["acme", "web"] : path.startsWith("/teams/") ? ["acme", "core"] : ["acme"];
  const cases = ROUTES.flatMap((r) => {
    const count = r.path.split("{}").length - 1;
    const real = realParams(r.path);
    return Array.from({ length: count }, (_, at) =>
      HOSTILE.map((bad) => {
        const values = Array.from({ length: count }, (_, i) => (i < at ? (real[i] ?? "1") : i === at ? bad : "1"));
        let path = r.path;
        for (const v of values) path = path.replace("{}", v);
        return [r.method, `/api/0${path}/`, at] as const;
      }),
    ).flat();
  });

  it("answers 404 to a hostile identifier in every route's path", async () => {
    expect((await call("owner", "POST", "/api/0/organizations/acme/teams/", { slug: "core" })).status).toBe(201);
    const wrong: string[] = [];
    // A few at a time, as a client with a small pool would send them.
    const replies = [];
    for (let i = 0; i < cases.length; i += 8)
      replies.push(
        ...(await Promise.all(
          cases
            .slice(i, i + 8)
            .map(([method, path]) => call("owner", method, path, method === "GET" || method === "DELETE" ? undefined : {})),
        )),
      );
    for (const [i, [method, path]] of cases.entries()) {
      const { status } = replies[i]!;
      // An organization's tag key is free text: an unknown one has no values (200, []) rather than
      // not existing. An issue's tag values stay 404 here: the issue of the path does not exist.
      const expected = /^\/api\/0\/organizations\/acme\/tags\/9+\/values\/$/.test(path) ? 200 : 404;
      if (status !== expected) wrong.push(`${method} ${path.slice(0, 80)}: ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("answers 404 to a NUL in any query parameter, on organization and account routes", async () => {
    const wrong: string[] = [];
    for (const r of [...ROUTES.filter((x) => x.method === "GET"), ...ACCOUNT_ROUTES]) {
      let path = r.path;
      for (const v of realParams(r.path)) path = path.replace("{}", v);
      path = path.replaceAll("{}", "1");
      const { status } = await call("owner", "GET", `/api/0${path}/?query=a%00b&cursor=%00`);
      if (status !== 404) wrong.push(`${r.path}: ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("refuses a NUL in a body's text (a team's name) with a 400 that names the field, and stores nothing", async () => {
    const reply = await call("owner", "POST", "/api/0/organizations/acme/teams/", { slug: "nul-team", name: "a\u0000b" });
    expect(reply).toEqual({ status: 400, body: { detail: expect.stringMatching(/^name: .*NUL/) } });
    expect(await store.db.selectFrom("teams").select("id").where("slug", "=", "nul-team").execute()).toEqual([]);
  });
});
