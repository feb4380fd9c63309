import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { login } from "../../src/core/accounts/login";
import { auditor } from "../../src/core/audit/record";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { runRetention } from "../../src/core/retention/run";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { startApiServer } from "../support/api-server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * The audit log's store and API  on both databases: entries in Sentry's shape
 * at `GET /api/0/organizations/{org}/audit-logs/`, filtered by event, actor and date range,
 * paginated by cursor; readable by owners and managers only; no way to change or delete an
 * entry but retention (`TELLTALE_AUDIT_RETENTION_DAYS`).
 */
const DAY = 86_400_000;

describe.each(DIALECTS)("the audit log on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let owner: User;
  let member: User;
  let orgId: number;
  const tokens: Record<string, string> = {};
  let now = Date.parse("2026-11-20T12:00:00Z");

  const get = async (who: string, query = "", org = "acme") => {
    const res = await fetch(`${api.base}/api/0/organizations/${org}/audit-logs/${query}`, {
      headers: { authorization: `Bearer ${tokens[who]}` },
    });
    return {
      status: res.status,
      link: res.headers.get("link"),
      json: (await res.json()) as { rows: Record<string, unknown>[]; options: string[]; detail?: string },
    };
  };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => now });
    owner = await createUser({ ctx, input: { email: "olive@example.com", password: "password-123" } });
    member = await createUser({ ctx, input: { email: "mel@example.com", password: "password-123" } });
    orgId = (await createOrganization({ ctx, input: { slug: "acme", owner: owner.email } })).id;
    await createOrganization({ ctx, input: { slug: "other", owner: owner.email } });
    await ctx.directory.addMember(orgId, member.id, "member", [], now);
    for (const u of [owner, member]) tokens[u.email] = (await createToken({ ctx, input: { user: u.email } })).token;
    // Three days of entries: sign-ins (one per organization of the account), and two changes.
    await login({ ctx, input: { email: owner.email, password: "password-123", ip: "198.51.100.1", userAgent: "test" } });
    now += DAY;
    const audit = auditor(ctx, orgId, { user: owner, tokenId: null, ip: "198.51.100.1" }, ["member.edit", "project.remove"]);
    await audit({
      event: "member.edit",
      target: { type: "member", id: member.id, label: member.email },
      before: { role: "member" },
      after: { role: "admin" },
    });
    now += DAY;
    await audit({
      event: "project.remove",
      target: { type: "project", id: 7, label: "web<script>" },
      before: { slug: "web<script>", name: "x".repeat(5000) },
    });
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await api?.close();
    await store?.cleanup();
  });

  it("answers entries newest first in Sentry's shape, with the events one may filter by", async () => {
    const { status, json } = await get("olive@example.com");
    expect(status).toBe(200);
    expect(json.options).toEqual(expect.arrayContaining(["member.edit", "user.login", "project.remove"]));
    expect(json.rows.map((r) => r.event)).toEqual(["project.remove", "member.edit", "user.login"]);
    const edit = json.rows[1]!;
    expect(edit).toEqual({
      id: expect.stringMatching(/^\d+$/),
      actor: { id: String(owner.id), name: owner.email, email: owner.email, username: owner.email },
      event: "member.edit",
      ipAddress: "198.51.100.1",
      note: `changed a member's role: ${member.email}`,
      targetObject: member.id,
      targetUser: { id: String(member.id), email: member.email, name: member.email },
      targetType: "member",
      targetLabel: member.email,
      tokenId: null,
      data: { before: { role: "member" }, after: { role: "admin" } },
      dateCreated: "2026-11-21T12:00:00.000Z",
    });
    // What anyone typed is capped (and a page renders it as text).
    const removed = json.rows[0]!.data as { before: { name: string } };
    expect(removed.before.name.length).toBe(200);
  });

  it("keeps each organization's entries to itself: a sign-in is recorded once in each of the account's organizations", async () => {
    const other = await get("olive@example.com", "", "other");
    expect(other.json.rows.map((r) => r.event)).toEqual(["user.login"]);
  });

  it("filters by event, actor and date range, and pages by cursor", async () => {
    expect((await get("olive@example.com", "?event=member.edit")).json.rows).toHaveLength(1);
    expect((await get("olive@example.com", `?actor=${member.id}`)).json.rows).toHaveLength(0);
    expect((await get("olive@example.com", `?actor=${owner.id}`)).json.rows).toHaveLength(3);
    // A date-only end includes its whole day (UTC).
    const day = await get("olive@example.com", "?start=2026-11-21&end=2026-11-21");
    expect(day.json.rows.map((r) => r.event)).toEqual(["member.edit"]);
    const first = await get("olive@example.com", "?per_page=2");
    expect(first.json.rows).toHaveLength(2);
    const cursor = /cursor="(\d+)"/.exec((first.link ?? "").split(",")[1] ?? "")?.[1];
    expect(cursor).toBeDefined();
    const second = await get("olive@example.com", `?per_page=2&cursor=${cursor}`);
    expect(second.json.rows.map((r) => r.event)).toEqual(["user.login"]);
    expect(second.link).toContain('rel="next"; results="false"');
  });

  it("answers a bad filter with a clear 400", async () => {
    const bad = await get("olive@example.com", "?event=nope");
    expect(bad.status).toBe(400);
    expect(bad.json.detail).toMatch(/event must be one of/);
    expect((await get("olive@example.com", "?start=yesterday")).status).toBe(400);
  });

  it("is for owners and managers: a member is refused", async () => {
    expect((await get("mel@example.com")).status).toBe(403);
  });

  it("has no way to change or delete an entry through the API", async () => {
    for (const method of ["PUT", "POST", "DELETE"]) {
      const res = await fetch(`${api.base}/api/0/organizations/acme/audit-logs/`, {
        method,
        headers: { authorization: `Bearer ${tokens["olive@example.com"]}`, "content-type": "application/json" },
        body: method === "DELETE" ? undefined : "{}",
      });
      expect(res.status).toBe(405);
    }
    expect(
      Number(
        (
          await store.db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(4);
  });

  it("deletes entries past TELLTALE_AUDIT_RETENTION_DAYS in retention, and keeps the rest", async () => {
    now = Date.parse("2026-11-23T00:00:00Z");
    // Two days kept: the sign-ins (2026-11-20 12:00) are past it, the two changes are not.
    const { deleted } = await runRetention(ctx, { days: 90, maxEventsPerIssue: 10_000, batch: 1, auditDays: 2 });
    expect(deleted.audit_log).toBe(2);
    expect((await get("olive@example.com")).json.rows.map((r) => r.event)).toEqual(["project.remove", "member.edit"]);
  });

  it("records how a password sign-in was made and why one failed, the first throttled attempt included", async () => {
    const ip = "203.0.113.9";
    const attempt = (password: string) => login({ ctx, input: { email: member.email, password, ip, userAgent: "test" } });
    await attempt("password-123");
    for (let i = 0; i < ctx.limits.loginMaxFailures; i++) await expect(attempt("wrong")).rejects.toMatchObject({ code: "unauthenticated" });
    for (let i = 0; i < 2; i++) await expect(attempt("wrong")).rejects.toMatchObject({ code: "throttled" });
    // An address with no account is refused as before and belongs to no organization's log.
    await expect(
      login({ ctx, input: { email: "nobody@example.com", password: "x", ip: "203.0.113.10", userAgent: "test" } }),
    ).rejects.toMatchObject({
      code: "unauthenticated",
    });
    const mine = (await get("olive@example.com", `?actor=${member.id}&per_page=100`)).json.rows.map((r) => [r.event, r.data]);
    expect(mine.reverse()).toEqual([
      ["user.login", { after: { method: "password" } }],
      ...Array.from({ length: ctx.limits.loginMaxFailures }, () => [
        "user.login-failed",
        { after: { method: "password", reason: "wrong password" } },
      ]),
      ["user.login-failed", { after: { method: "password", reason: "throttled" } }],
    ]);
  });
});
