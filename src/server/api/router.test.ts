import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../../core/accounts/create-user";
import { login } from "../../core/accounts/login";
import type { Ctx } from "../../core/context";
import { createOrganization } from "../../core/orgs/create-org";
import { createProject } from "../../core/projects/create-project";
import { createToken } from "../../core/tokens/tokens";
import type { Project, ProjectKey } from "../../db/schema";
import { SESSION_COOKIE } from "../cookies";
import { setLogLevel } from "../log";
import { handleApi } from "./router";

const ROUTES = ["/api/0/organizations/acme/projects/", "/api/0/projects/acme/web/keys/", "/api/0/no/such/endpoint/"];

describe.each(DIALECTS)("handleApi on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: Server;
  let base: string;
  let web: Project;
  let webKey: ProjectKey;
  let aliceToken: string;
  let bobToken: string;
  let rootToken: string;

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store, { publicUrl: "http://telltale.test:8000" });
    await Promise.all([
      createUser({ ctx, input: { email: "alice@example.com", password: "alice password" } }),
      createUser({ ctx, input: { email: "bob@example.com", password: "bob password" } }),
      createUser({ ctx, input: { email: "root@example.com", password: "root password", superuser: true } }),
    ]);
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "alice@example.com" } });
    await createOrganization({ ctx, input: { slug: "bobco", owner: "bob@example.com" } });
    ({ project: web, key: webKey } = await createProject({ ctx, input: { org: "acme", slug: "web", name: "Web shop", platform: "node" } }));
    await createProject({ ctx, input: { org: "acme", slug: "api" } });
    ({ token: aliceToken } = await createToken({ ctx, input: { user: "alice@example.com" } }));
    ({ token: bobToken } = await createToken({ ctx, input: { user: "bob@example.com" } }));
    ({ token: rootToken } = await createToken({ ctx, input: { user: "root@example.com" } }));

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

  const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function expectJson(response: Response, status: number): Promise<unknown> {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/json");
    return response.json();
  }

  describe.each([
    ["no credentials", {}],
    ["a wrong Bearer token", bearer(`sntryu_${"0".repeat(64)}`)],
    ["a Bearer token without the token prefix", bearer("not-a-telltale-token")],
    ["a malformed Authorization header", { authorization: "Bearer" }],
    ["an Authorization header of another scheme", { authorization: "Basic YWxpY2U6cGFzc3dvcmQ=" }],
    ["an unknown session cookie", { cookie: `${SESSION_COOKIE}=unknown` }],
  ])("with %s", (_what, headers: Record<string, string>) => {
    it.each(ROUTES)("answers 401 JSON for %s", async (path) => {
      const body = await expectJson(await get(path, headers), 401);
      expect(body).toEqual({ detail: expect.any(String) });
    });
  });

  it("lists an organization's projects with Sentry's field names", async () => {
    const body = await expectJson(await get("/api/0/organizations/acme/projects/", bearer(aliceToken)), 200);
    expect(body).toEqual([
      expect.objectContaining({ slug: "api", name: "api", platform: "javascript" }),
      expect.objectContaining({
        id: String(web.id),
        slug: "web",
        name: "Web shop",
        platform: "node",
        dateCreated: new Date(web.created_at).toISOString(),
        organization: expect.objectContaining({ slug: "acme", name: "Acme" }),
      }),
    ]);
  });

  it("lists a project's keys with their DSN built on the public URL", async () => {
    const body = await expectJson(await get("/api/0/projects/acme/web/keys", bearer(aliceToken)), 200);
    expect(body).toEqual([
      expect.objectContaining({
        id: webKey.public_key,
        public: webKey.public_key,
        secret: webKey.secret_key,
        isActive: true,
        dsn: expect.objectContaining({
          public: `http://${webKey.public_key}@telltale.test:8000/${web.id}`,
          secret: `http://${webKey.public_key}:${webKey.secret_key}@telltale.test:8000/${web.id}`,
          store: `http://telltale.test:8000/api/${web.id}/store/`,
        }),
      }),
    ]);
  });

  it("hides another organization's projects from a non-member as 404 JSON", async () => {
    expect(await expectJson(await get("/api/0/organizations/acme/projects/", bearer(bobToken)), 404)).toEqual({
      detail: "organization 'acme' does not exist",
    });
    expect(await expectJson(await get("/api/0/projects/acme/web/keys/", bearer(bobToken)), 404)).toEqual({
      detail: "organization 'acme' does not exist",
    });
  });

  it("shows any organization's projects to a superuser", async () => {
    const body = await expectJson(await get("/api/0/organizations/bobco/projects/", bearer(rootToken)), 200);
    expect(body).toEqual([]);
    expect(await expectJson(await get("/api/0/projects/acme/web/keys/", bearer(rootToken)), 200)).toHaveLength(1);
  });

  it("answers 404 JSON for an unknown project and an unknown path with a valid token", async () => {
    expect(await expectJson(await get("/api/0/projects/acme/nope/keys/", bearer(aliceToken)), 404)).toEqual({
      detail: "project 'nope' does not exist in organization 'acme'",
    });
    expect(await expectJson(await get("/api/0/no/such/endpoint/", bearer(aliceToken)), 404)).toEqual({ detail: "Not found" });
  });

  it("answers 405 JSON naming the allowed method for a write to a read-only route", async () => {
    const response = await fetch(base + "/api/0/organizations/acme/projects/", { method: "DELETE", headers: bearer(aliceToken) });
    expect(await expectJson(response, 405)).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(response.headers.get("allow")).toBe("GET");
  });

  it("accepts the session cookie of a signed-in user for reads only", async () => {
    const { token } = await login({
      ctx,
      input: { email: "alice@example.com", password: "alice password", ip: "127.0.0.1", userAgent: "vitest" },
    });
    const cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}`;
    expect(await expectJson(await get("/api/0/organizations/acme/projects/", { cookie }), 200)).toHaveLength(2);
    // A cross-site form could send the cookie with a POST: it must not authenticate one.
    const post = await fetch(base + "/api/0/organizations/acme/projects/", { method: "POST", headers: { cookie } });
    expect(await expectJson(post, 401)).toEqual({ detail: "Authentication credentials were not provided." });
    // The API index names a session's user; a session is no token, so it has no scopes.
    expect(await expectJson(await get("/api/0/", { cookie }), 200)).toMatchObject({
      version: "0",
      auth: null,
      user: { email: "alice@example.com" },
    });
  });

  it("answers the API index as Sentry does: 200 naming no one without credentials, 401 for a wrong token", async () => {
    const anonymous = { version: "0", auth: null, user: null };
    expect(await expectJson(await get("/api/0/"), 200)).toEqual(anonymous);
    expect(await expectJson(await get("/api/0/", { cookie: `${SESSION_COOKIE}=unknown` }), 200)).toEqual(anonymous);
    expect(await expectJson(await get("/api/0/", bearer(`sntryu_${"0".repeat(64)}`)), 401)).toEqual({ detail: "Invalid token" });
    expect(await expectJson(await fetch(base + "/api/0/", { method: "POST" }), 401)).toEqual({
      detail: "Authentication credentials were not provided.",
    });
    expect(await expectJson(await get("/api/0/", bearer(aliceToken)), 200)).toMatchObject({
      user: { id: expect.stringMatching(/^\d+$/), email: "alice@example.com" },
    });
  });
});
