import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { launchBrowser, signIn } from "../support/browser";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = "/tmp/shots-sso";
const OWNER = "owner@example.com";
const PASSWORD = "password-123";

/**
 * Issue 15, item 1: OpenID Connect sign-in per organization, end to end in headless Chromium
 * against a real OpenID provider (oidc-provider) running in this process: the owner sets it up
 * (a wrong issuer is refused), a first sign-in creates the account and the membership, "require
 * SSO" refuses the password form to members but not to the owner, and a tampered ID token
 * signs nobody in.
 */
describe.each(DIALECTS)("single sign-on with OpenID Connect in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let provider: TestProvider;
  let browser: Browser;
  let owner: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: OWNER, password: PASSWORD, name: "Olive Owner" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    await createUser({ ctx, input: { email: "linus@example.com", password: PASSWORD, name: "Linus" } });
    const linus = (await ctx.accounts.userByEmail("linus@example.com"))!;
    const org = (await ctx.sso.membershipOrgIds((await ctx.accounts.userByEmail(OWNER))!.id))[0]!;
    await ctx.directory.addMember(org, linus.id, "member", [], Date.now());
    server = await startServer({
      ...store.env,
      TELLTALE_SELF_DSN: "off",
      TELLTALE_SECRET_KEY: "an e2e secret key of forty-two characters",
    });
    provider = await startOidcProvider([`${server.url}/sso/acme/callback`], {
      grace: { email: "grace@example.com", email_verified: true, name: "Grace Hopper" },
      mallory: { email: "mallory@example.com", email_verified: false, name: "Mallory" },
    });
    browser = await launchBrowser();
    owner = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(owner, server.url, OWNER);
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await provider?.close();
    await server?.stop();
    await store?.cleanup();
  });

  const shoot = async (page: Page, name: string) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `${name}-${dialect}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-${dialect}-1280.png`), fullPage: true });
  };

  const saveProvider = async (issuer: string) => {
    await owner.goto(`${server.url}/orgs/acme/settings/sso`);
    await owner.fill("[data-testid=sso-form] input[name=issuer]", issuer);
    await owner.fill("[data-testid=sso-form] input[name=clientId]", provider.clientId);
    await owner.fill("[data-testid=sso-form] input[name=clientSecret]", provider.clientSecret);
    await owner.selectOption("[data-testid=sso-form] select[name=defaultRole]", "admin");
    await owner.click("[data-testid=sso-form] button[type=submit]");
    const message = owner.locator("[data-testid=sso-form] .error, [data-testid=sso-form] .notice");
    await message.waitFor();
    return message.textContent();
  };

  /** A browser of its own, signing in through the provider's login page as `login`. */
  const ssoSignIn = async (login: string): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login?sso=acme`);
    await page.click("button:text-is('Sign in with Acme SSO')");
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.fill("input[name=login]", login);
    await page.fill("input[name=password]", "anything");
    await page.click("button[type=submit]");
    // The provider may ask for consent (once per client and account) before sending the browser back.
    const consent = page.locator("button:text-is('Continue')");
    const home = (url: URL) => url.href.startsWith(server.url);
    const next = await Promise.race([
      page.waitForURL(home).then(
        () => "back",
        () => "none",
      ),
      consent.waitFor().then(
        () => "consent",
        () => "none",
      ),
    ]);
    if (next === "consent") await consent.click();
    await page.waitForURL(home);
    await page.waitForLoadState("networkidle");
    return { context, page };
  };

  it("refuses a wrong issuer: the discovery document must name the issuer it was read from", async () => {
    // Same provider, another spelling of its address: its document names 127.0.0.1, not localhost.
    const wrong = provider.issuer.replace("127.0.0.1", "localhost");
    expect(await saveProvider(wrong)).toMatch(/names a different issuer/);
    expect(await saveProvider(`${server.url}/nothing-here`)).toMatch(/No OpenID provider answered/);
    expect(await testCtx(store).sso.providerBySlug("acme")).toBeNull();
  });

  it("saves the provider after discovering it, with its client secret stored encrypted", async () => {
    expect(await saveProvider(provider.issuer)).toMatch(/^Saved/);
    await owner.reload();
    await expect(owner.locator("[data-testid=sso-discovered]").textContent()).resolves.toContain(`${provider.issuer}/token`);
    expect(await owner.locator("[data-testid=sso-redirect-uri]").textContent()).toBe(`${server.url}/sso/acme/callback`);
    const stored = await testCtx(store).sso.providerBySlug("acme");
    expect(stored?.provider.issuer).toBe(provider.issuer);
    expect(stored?.provider.clientSecret).not.toContain(provider.clientSecret);
    await shoot(owner, "sso-settings");
  });

  it("creates the account and the membership on the first sign-in, with the default role and team", async () => {
    const { context, page } = await ssoSignIn("grace");
    expect(new URL(page.url()).pathname).toBe("/orgs/acme");
    const ctx = testCtx(store);
    const grace = await ctx.accounts.userByEmail("grace@example.com");
    expect(grace?.name).toBe("Grace Hopper");
    expect(await ctx.directory.memberRole((await ctx.sso.providerBySlug("acme"))!.org.id, grace!.id)).toBe("admin");
    // Signing out ends the session; signing in again finds the same account.
    await page.click("button:text-is('Sign out')");
    await page.waitForURL(/\/login/);
    await context.close();
    const again = await ssoSignIn("grace");
    expect(new URL(again.page.url()).pathname).toBe("/orgs/acme");
    expect((await ctx.accounts.userByEmail("grace@example.com"))?.id).toBe(grace!.id);
    // Each sign-in is in the organization's audit log with its method.
    const logins = await store.db
      .selectFrom("audit_log")
      .select("data")
      .where("event", "=", "user.login")
      .where("actor_user_id", "=", grace!.id)
      .execute();
    expect(logins.map((e) => JSON.parse(e.data) as unknown)).toEqual(
      [0, 1].map(() => ({ after: { method: "SSO", organization: "acme" } })),
    );
    await again.context.close();
  }, 120_000);

  it("refuses an email the provider did not verify", async () => {
    const { context, page } = await ssoSignIn("mallory");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await page.locator("[data-testid=sso-error]").textContent()).toMatch(/has not verified the email address mallory@example.com/);
    await shoot(page, "sso-login-refused");
    await context.close();
  });

  it("refuses a tampered ID token", async () => {
    provider.tamper = true;
    try {
      const { context, page } = await ssoSignIn("grace");
      expect(new URL(page.url()).pathname).toBe("/login");
      expect(await page.locator("[data-testid=sso-error]").textContent()).toBe("The identity provider's answer was refused.");
      // The log line travels through the server's stdout pipe: it can arrive after the page.
      await expect.poll(() => server.logs(), { timeout: 10_000 }).toContain("sso sign-in refused");
      await context.close();
    } finally {
      provider.tamper = false;
    }
  });

  it('refuses the password form to members once "require SSO" is on, but not to the owner', async () => {
    await owner.goto(`${server.url}/orgs/acme/settings/sso`);
    await owner.check("[data-testid=require-sso-form] input[name=required]");
    await owner.click("[data-testid=require-sso-form] button[type=submit]");
    await owner.locator("[data-testid=require-sso-form] .notice").waitFor();

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.fill("input[name=email]", "linus@example.com");
    await page.fill("input[name=password]", PASSWORD);
    await page.click("main button[type=submit]");
    await expect(page.locator("form .error").textContent()).resolves.toMatch(/Acme requires single sign-on/);
    expect(new URL(page.url()).pathname).toBe("/login");
    await shoot(page, "sso-required-password-refused");
    await context.close();

    const ownerAgain = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(ownerAgain, server.url, OWNER);
    await ownerAgain.close();
  });
});
