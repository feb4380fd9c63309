import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import { login } from "../accounts/login";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import type { SsoProviderRecord } from "../ports/sso";
import { provisionSsoUser } from "./provision";

const ISSUER = "https://idp.example.com";
const PASSWORD = "password-123";

describe.each(DIALECTS)("single sign-on accounts and memberships on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let org: { id: number; name: string };
  let provider: SsoProviderRecord;
  let teamId: number;

  const signIn = (sub: string, email?: string, verified?: boolean) =>
    provisionSsoUser(ctx, org, provider, { iss: ISSUER, sub, email, email_verified: verified, name: "Grace Hopper" });
  const roleOf = (userId: number) => ctx.directory.memberRole(org.id, userId);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: PASSWORD } });
    const created = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "owner@example.com" } });
    org = { id: created.id, name: created.name };
    const team = await ctx.directory.insertTeam(org.id, { slug: "sso-people", name: "SSO people" }, null, ctx.now());
    teamId = team!.id;
    await ctx.sso.putProvider(
      {
        organizationId: org.id,
        issuer: ISSUER,
        clientId: "telltale",
        clientSecret: ctx.secrets.seal("s3cret", "sso-client-secret"),
        metadata: JSON.stringify({ issuer: ISSUER }),
        defaultRole: "admin",
        defaultTeamId: teamId,
      },
      ctx.now(),
    );
    provider = (await ctx.sso.provider(org.id))!;
  });
  afterAll(() => store.cleanup());

  it("stores the provider with its secret sealed, and require-SSO off", async () => {
    expect(provider).toMatchObject({
      issuer: ISSUER,
      clientId: "telltale",
      defaultRole: "admin",
      defaultTeamId: teamId,
      requireSso: false,
    });
    expect(provider.clientSecret).not.toContain("s3cret");
  });

  it("creates an account on the first sign-in, a member with the default role and team, and finds it again by subject", async () => {
    const user = await signIn("sub-1", "Grace@Example.com", true);
    expect(user.email).toBe("grace@example.com");
    expect(user.name).toBe("Grace Hopper");
    expect(await roleOf(user.id)).toBe("admin");
    expect(await ctx.directory.teamRole(teamId, user.id)).toBe("contributor");
    // The subject is what identifies: a changed email at the provider is the same person.
    const again = await signIn("sub-1", "grace.hopper@example.com", false);
    expect(again.id).toBe(user.id);
    // No password opens that account.
    await expect(login({ ctx, input: { email: "grace@example.com", password: "", ip: "10.9.0.1", userAgent: "t" } })).rejects.toThrow(
      /Wrong email or password/,
    );
  });

  it("keeps the role of someone already a member", async () => {
    const user = await signIn("sub-1", "grace@example.com", true);
    await ctx.directory.setMemberRole(org.id, user.id, "manager", () => undefined);
    await signIn("sub-1");
    expect(await roleOf(user.id)).toBe("manager");
  });

  it("refuses an email the provider has not verified, or none, for an identity not yet linked", async () => {
    await expect(signIn("sub-2", "new@example.com", false)).rejects.toThrow(/has not verified the email address new@example.com/);
    await expect(signIn("sub-2", "new@example.com")).rejects.toThrow(/has not verified/);
    await expect(signIn("sub-2")).rejects.toThrow(/sent no email address/);
    expect(await ctx.accounts.userByEmail("new@example.com")).toBeNull();
  });

  it("links an existing account without other organizations by its verified email", async () => {
    const existing = await createUser({ ctx, input: { email: "linus@example.com", password: PASSWORD } });
    const user = await signIn("sub-3", "linus@example.com", true);
    expect(user.id).toBe(existing.id);
    expect(await roleOf(existing.id)).toBe("admin");
    expect((await signIn("sub-3")).id).toBe(existing.id);
  });

  it("never links a superuser, nor a member of another organization, by email", async () => {
    await createUser({ ctx, input: { email: "root@example.com", password: PASSWORD, superuser: true } });
    await expect(signIn("sub-4", "root@example.com", true)).rejects.toThrow(/already exists outside Acme/);
    await createUser({ ctx, input: { email: "other@example.com", password: PASSWORD } });
    await createOrganization({ ctx, input: { slug: "other", name: "Other", owner: "other@example.com" } });
    await expect(signIn("sub-5", "other@example.com", true)).rejects.toThrow(/already exists outside Acme/);
    expect(await roleOf((await ctx.accounts.userByEmail("other@example.com"))!.id)).toBeNull();
  });

  it("refuses password sign-in to members once SSO is required, but not to owners", async () => {
    const password = (email: string) => login({ ctx, input: { email, password: PASSWORD, ip: "10.9.1.1", userAgent: "t" } });
    await expect(password("linus@example.com")).resolves.toMatchObject({ user: { email: "linus@example.com" } });
    expect(await ctx.sso.setRequireSso(org.id, true, ctx.now())).toBe(true);
    await expect(password("linus@example.com")).rejects.toThrow(/Acme requires single sign-on/);
    // The refusal is in the organization's audit log with its reason.
    const last = await store.db
      .selectFrom("audit_log")
      .select(["event", "data"])
      .where("organization_id", "=", org.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect([last.event, JSON.parse(last.data)]).toEqual([
      "user.login-failed",
      { after: { method: "password", reason: "single sign-on required" } },
    ]);
    await expect(password("owner@example.com")).resolves.toMatchObject({ user: { email: "owner@example.com" } });
    await ctx.sso.setRequireSso(org.id, false, ctx.now());
    await expect(password("linus@example.com")).resolves.toMatchObject({ user: { email: "linus@example.com" } });
  });
});
