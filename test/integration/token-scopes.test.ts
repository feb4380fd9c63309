import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { PERMISSIONS } from "../../src/core/permissions/table";
import { isScope } from "../../src/core/tokens/scopes";
import {
  createToken,
  issueOrgToken,
  listOrgTokens,
  listTokens,
  revokeOrgToken,
  revokeToken,
  userIdByEmail,
  type TokenSpec,
} from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { sentryCli } from "../support/clients";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startApiServer } from "../support/api-server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Issue 12, API tokens: a token may do no more than its scopes say (checked by the permission
 * table with the role), a revoked or expired token is refused (401), and a token made without
 * scopes keeps every scope its user's role allows. Both databases, through the real router.
 */
describe.each(DIALECTS)("API token scopes on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let now = Date.now();
  let api: { base: string; close(): Promise<void> };
  let base: string;
  let issueId = "";

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => now });
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } });
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: project.id, key_id: 0, endpoint: "envelope", received_at: now, body: errorEnvelope(newEventId(), "scoped") })
      .execute();
    await digestBatch(ctx, { batchSize: 10, limits: DEFAULT_ENVELOPE_LIMITS });
    issueId = String((await store.db.selectFrom("issues").select("id").executeTakeFirstOrThrow()).id);
    api = await startApiServer(ctx);
    base = api.base;
  });

  afterAll(async () => {
    await api.close();
    await store.cleanup();
  });

  const tokenFor = async (spec: TokenSpec = {}) => (await createToken({ ctx, input: { user: "owner@example.com", ...spec } })).token;
  const read = (token: string) => fetch(`${base}/api/0/projects/acme/api/issues/`, { headers: { authorization: `Bearer ${token}` } });
  const resolve = (token: string, status = "resolved") =>
    fetch(`${base}/api/0/organizations/acme/issues/${issueId}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ status }),
    });

  it("gives every organization permission a known scope", () => {
    for (const row of PERMISSIONS) {
      if (row.audience !== "organization") continue;
      expect(row, row.permission).toHaveProperty("scope");
      expect(isScope((row as { scope: string }).scope)).toBe(true);
    }
  });

  it("lets a project:read and event:read token read issues but not resolve one", async () => {
    const token = await tokenFor({ name: "read only", scopes: ["project:read", "event:read"] });
    expect((await read(token)).status).toBe(200);
    const refused = await resolve(token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ detail: "You do not have permission to perform this action." });
    const issue = await store.db.selectFrom("issues").select("status").where("id", "=", Number(issueId)).executeTakeFirstOrThrow();
    expect(issue.status).toBe("unresolved");
  });

  it("refuses reads to a token whose scopes name other resources", async () => {
    expect((await read(await tokenFor({ scopes: ["project:read"] }))).status).toBe(403);
    expect((await read(await tokenFor({ scopes: ["org:read"] }))).status).toBe(403);
  });

  it("lets event:write resolve, and a higher level cover the lower ones (event:admin reads and writes)", async () => {
    expect((await resolve(await tokenFor({ scopes: ["event:write"] }))).status).toBe(200);
    const admin = await tokenFor({ scopes: ["event:admin", "project:read"] });
    expect((await read(admin)).status).toBe(200);
    expect((await resolve(admin, "unresolved")).status).toBe(200);
  });

  it("keeps every scope of the role for a token made without scopes", async () => {
    const token = await tokenFor();
    expect((await read(token)).status).toBe(200);
    expect((await resolve(token, "unresolved")).status).toBe(200);
  });

  it("refuses a revoked token at once and an expired one after its time, with 401", async () => {
    const token = await tokenFor({ name: "to revoke" });
    expect((await read(token)).status).toBe(200);
    const userId = await userIdByEmail(ctx, "owner@example.com");
    const listed = (await listTokens(ctx, userId)).find((t) => t.name === "to revoke")!;
    expect(listed.lastUsedAt).not.toBeNull();
    expect(listed.prefix).toBe(token.slice(0, 13));
    await revokeToken(ctx, userId, listed.id);
    const revoked = await read(token);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ detail: "Invalid token" });
    expect((await listTokens(ctx, userId)).find((t) => t.id === listed.id)?.revokedAt).toBe(now);

    const expiring = await tokenFor({ expiresInDays: 1 });
    expect((await read(expiring)).status).toBe(200);
    now += 86_400_000 + 1;
    expect((await read(expiring)).status).toBe(401);
  });

  it("lists the user's organizations for sentry-cli (organizations list), in Sentry's shape, with org:read", async () => {
    const token = await tokenFor({ scopes: ["org:read"] });
    const list = await fetch(`${base}/api/0/organizations/`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([
      expect.objectContaining({ slug: "acme", isEarlyAdopter: false, require2FA: false, requireEmailVerification: false, features: [] }),
    ]);
    const detail = await fetch(`${base}/api/0/organizations/acme/`, { headers: { authorization: `Bearer ${token}` } });
    expect(await detail.json()).toMatchObject({ slug: "acme", role: "owner", dateCreated: expect.stringMatching(/^\d{4}-/) });
    // sentry-cli asks for the user's regions first and takes 404 as "this server only".
    expect((await fetch(`${base}/api/0/users/me/regions/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    const cli = await sentryCli(base, token, ["organizations", "list"]);
    expect(cli.out).toContain("acme");
    expect(cli.code).toBe(0);
    const noScope = await fetch(`${base}/api/0/organizations/`, {
      headers: { authorization: `Bearer ${await tokenFor({ scopes: ["event:read"] })}` },
    });
    expect(noScope.status).toBe(403);
  });

  it("makes organization tokens in Sentry's sntrys_ format: sentry-cli needs no --url or --org, and other organizations are out of reach", async () => {
    const owner = await userIdByEmail(ctx, "owner@example.com");
    const acme = await store.db.selectFrom("organizations").select(["id", "slug"]).where("slug", "=", "acme").executeTakeFirstOrThrow();
    await createOrganization({ ctx, input: { slug: "beta", owner: "owner@example.com" } });
    const { token } = await issueOrgToken({ ...ctx, publicUrl: base }, owner, acme, { name: "CI" });
    const [, payload, secret, extra] = token.split("_");
    expect(token.startsWith("sntrys_")).toBe(true);
    expect(extra).toBeUndefined();
    expect(JSON.parse(Buffer.from(payload!, "base64").toString("utf8"))).toMatchObject({ url: base, region_url: base, org: "acme" });
    expect(Buffer.from(secret!, "base64").length).toBe(32);

    const orgs = await sentryCli(null, token, ["organizations", "list"]);
    expect(orgs.code, orgs.out).toBe(0);
    expect(orgs.out).toContain("acme");
    expect(orgs.out).not.toContain("beta");
    const projects = await sentryCli(null, token, ["projects", "list"]);
    expect(projects.code, projects.out).toBe(0);
    expect(projects.out).toContain("api");

    // Its creator owns beta too, but the token is acme's alone; and it may not change anything.
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${base}/api/0/organizations/beta/projects/`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${base}/api/0/organizations/acme/projects/`, { headers: auth })).status).toBe(200);
    expect((await resolve(token)).status).toBe(403);

    const [listed] = await listOrgTokens(ctx, acme.id);
    expect(listed).toMatchObject({ name: "CI", createdBy: "owner@example.com", scopes: ["org:read", "project:read", "project:releases"] });
    expect(await listTokens(ctx, owner)).not.toContainEqual(expect.objectContaining({ id: listed!.id }));
    await revokeOrgToken(ctx, acme.id, listed!.id);
    expect((await fetch(`${base}/api/0/organizations/acme/projects/`, { headers: auth })).status).toBe(401);
  });

  it("answers sentry-cli info: the user and scopes of a personal token, the scopes alone of an organization token", async () => {
    const personal = await tokenFor({ name: "info", scopes: ["project:read", "project:releases"] });
    const mine = await sentryCli(base, personal, ["info", "--no-defaults"]);
    expect(mine.code, mine.out).toBe(0);
    expect(mine.out).toContain(
      [
        "Authentication Info:",
        "  Method: Auth Token",
        "  User: owner@example.com",
        "  Scopes:",
        "    - project:read",
        "    - project:releases",
      ].join("\n"),
    );
    // A token made without scopes is bounded by its user's role alone: it lists every scope.
    const unscoped = await sentryCli(base, await tokenFor(), ["info", "--no-defaults"]);
    expect(unscoped.out).toContain("    - org:read\n");
    expect(unscoped.out).toContain("    - alerts:write\n");
    const status = await sentryCli(base, personal, ["info", "--config-status-json"]);
    expect(JSON.parse(status.out)).toMatchObject({ auth: { type: "token", successful: true } });

    const owner = await userIdByEmail(ctx, "owner@example.com");
    const acme = await store.db.selectFrom("organizations").select(["id", "slug"]).where("slug", "=", "acme").executeTakeFirstOrThrow();
    const { token: orgToken } = await issueOrgToken({ ...ctx, publicUrl: base }, owner, acme, { name: "CI info" });
    const ci = await sentryCli(null, orgToken, ["info", "--no-defaults"]);
    expect(ci.code, ci.out).toBe(0);
    expect(ci.out).toContain(`Sentry Server: ${base}`);
    expect(ci.out).toContain("  Scopes:\n    - org:read\n    - project:read\n    - project:releases");
    // An organization token speaks for its organization, not a person, as in Sentry.
    expect(ci.out).not.toContain("User:");

    // A wrong token: sentry-cli reports the failure and exits non-zero.
    const wrong = await sentryCli(base, `sntryu_${"0".repeat(64)}`, ["info", "--no-defaults"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).not.toContain("User:");
  });

  it("renames an organization through PUT /api/0/organizations/{org}/ with org:write, and refuses a taken slug", async () => {
    await createOrganization({ ctx, input: { slug: "gamma", owner: "owner@example.com" } });
    const put = (token: string, org: string, body: unknown) =>
      fetch(`${base}/api/0/organizations/${org}/`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const writer = await tokenFor({ scopes: ["org:write"] });
    expect((await put(await tokenFor({ scopes: ["org:read"] }), "gamma", { name: "Gamma" })).status).toBe(403);
    const renamed = await put(writer, "gamma", { name: "Gamma Inc", slug: "delta" });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ slug: "delta", name: "Gamma Inc" });
    const reader = await tokenFor({ scopes: ["org:read"] });
    expect((await fetch(`${base}/api/0/organizations/delta/`, { headers: { authorization: `Bearer ${reader}` } })).status).toBe(200);
    expect((await fetch(`${base}/api/0/organizations/gamma/`, { headers: { authorization: `Bearer ${reader}` } })).status).toBe(404);
    expect((await put(writer, "delta", { slug: "acme" })).status).toBe(409);
    expect((await put(writer, "delta", { slug: "Not A Slug" })).status).toBe(400);
    expect((await put(writer, "delta", { owner: "someone" })).status).toBe(400);
  });

  it("does not let a user revoke another user's token", async () => {
    await createUser({ ctx, input: { email: "mallory@example.com", password: "password-123" } });
    const owner = await userIdByEmail(ctx, "owner@example.com");
    const mallory = await userIdByEmail(ctx, "mallory@example.com");
    const [victim] = await listTokens(ctx, owner);
    await expect(revokeToken(ctx, mallory, victim!.id)).rejects.toThrow(/not found/);
  });
});
