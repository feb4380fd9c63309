import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createTeam } from "../../src/core/teams/teams";
import { organizationFor } from "../../src/core/orgs/access";
import type { Ctx } from "../../src/core/context";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");
const OWNER = "olive@example.com";

/**
 * Issue 12, item 3: an invitation goes out by email through a real SMTP server in the test, is
 * parsed, and its link is followed in headless Chromium: a new person creates their account and
 * lands in the organization with the invited role and team; someone with an account signs in
 * and joins; a used link says so.
 */
describe.each(DIALECTS)("invitations by email in Chromium on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let smtp: TestSmtp;
  let server: TestServer;
  let browser: Browser;
  let owner: Page;
  const guests: BrowserContext[] = [];
  let usedLink = "";

  const shoot = async (page: Page, name: string) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${dialect}-${width}.png`), fullPage: true });
    }
  };
  /** Invites from the members page and returns the link the email carries. */
  const invite = async (email: string, role: string, team?: string) => {
    const before = smtp.countTo(email);
    await owner.goto(`${server.url}/orgs/acme/members`);
    const form = owner.locator("[data-testid=invite-form]");
    await form.locator("input[name=email]").fill(email);
    await form.locator(`input[name=role][value=${role}]`).check();
    if (team) await form.locator(`input[name=team][value=${team}]`).check();
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    expect(await form.locator(".notice").textContent()).toBe(`Invitation sent to ${email}.`);
    const mail = await smtp.nextTo(email, before);
    expect(mail.subject).toBe("Join Acme on Telltale");
    const link = mail.text?.match(/http:\/\/localhost:\d+\/invite\/[\w-]{43}/)?.[0] ?? "";
    expect(link.startsWith(`${server.url}/invite/`)).toBe(true);
    expect(mail.html || "").toContain(`href="${link}"`);
    return link;
  };
  const guest = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    guests.push(context);
    return context.newPage();
  };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    const olive = await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    await createUser({ ctx, input: { email: "erin@example.com", password: "password-123", name: "Erin" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    await createOrganization({ ctx, input: { slug: "erins", name: "Erin's", owner: "erin@example.com" } });
    await createTeam({
      ctx,
      input: { access: await organizationFor(ctx, olive, "acme"), creatorId: olive.id, team: { slug: "web", name: "Web" } },
    });
    smtp = await startSmtp();
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_SMTP_URL: smtp.url });
    browser = await launchBrowser();
    owner = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(owner, server.url, OWNER);
  });

  afterAll(async () => {
    for (const context of guests) await context.close();
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await store?.cleanup();
  });

  it("emails a new person a link that creates their account in the organization, with the role and team", async () => {
    const link = await invite("newt@example.com", "admin", "web");
    await owner.locator("[data-testid=invitation-row]").first().waitFor();
    expect(await owner.locator("[data-testid=invitation-row]").first().textContent()).toContain("newt@example.com");
    await shoot(owner, "members-invite");
    const page = await guest();
    await page.goto(link);
    expect(await page.locator("h1").textContent()).toBe("Join Acme");
    expect(await page.locator("[data-testid=accept-invitation] input[readonly]").inputValue()).toBe("newt@example.com");
    await shoot(page, "invitation-new-account");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.fill("input[name=name]", "Newt");
    await page.fill("input[name=password]", "newt's password");
    await page.click("[data-testid=accept-invitation] button[type=submit]");
    await page.waitForURL(/\/orgs\/acme$/);
    const row = await store.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["memberships.role", "users.name"])
      .where("users.email", "=", "newt@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "admin", name: "Newt" });
    expect(
      (
        await ctx.directory.members(
          (await store.db.selectFrom("organizations").select("id").where("slug", "=", "acme").executeTakeFirstOrThrow()).id,
        )
      ).find((m) => m.email === "newt@example.com")?.teams,
    ).toEqual(["web"]);
    usedLink = link;
  });

  it("says a used link was used, without an error page", async () => {
    const page = await guest();
    const response = await page.goto(usedLink);
    expect(response?.status()).toBe(200);
    expect(await page.locator("main .error").textContent()).toMatch(/does not exist or was used/);
  });

  it("sends someone with an account to sign in, then lets them join as themselves", async () => {
    const link = await invite("erin@example.com", "member");
    const page = await guest();
    await page.goto(link);
    await page.click("a:text-is('Sign in to accept')");
    await page.waitForURL(/\/login\?next=/);
    await page.fill("input[name=email]", "erin@example.com");
    await page.fill("input[name=password]", "password-123");
    await page.click("main button[type=submit]");
    await page.waitForURL(/\/invite\//);
    await shoot(page, "invitation-signed-in");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click("[data-testid=accept-invitation] button[type=submit]");
    await page.waitForURL(/\/orgs\/acme$/);
    await owner.goto(`${server.url}/orgs/acme/members`);
    expect(await owner.locator("main").textContent()).toContain("erin@example.com");
    expect(await owner.locator("[data-testid=invitation-row]").count()).toBe(0);
  });

  it("refuses another signed-in account: says whose the invitation is and signs out to accept as that address", async () => {
    const link = await invite("gwen@example.com", "admin");
    const page = await guest();
    await signIn(page, server.url, "erin@example.com");
    await page.goto(link);
    const panel = page.locator("[data-testid=invitation-other-account]");
    expect(await panel.locator(".warning").textContent()).toBe(
      "This invitation is for gwen@example.com, and you are signed in as erin@example.com. Only gwen@example.com can accept it.",
    );
    expect(await page.locator("[data-testid=accept-invitation]").count()).toBe(0);
    await shoot(page, "invitation-other-account");
    await page.setViewportSize({ width: 1280, height: 900 });
    await panel.locator("button:text-is('Sign out and continue as gwen@example.com')").click();
    // Back on the link, signed out: the invited address can now create its account and join.
    await page.locator("[data-testid=accept-invitation] input[readonly]").waitFor();
    expect(page.url()).toBe(link);
    expect(await page.locator("[data-testid=accept-invitation] input[readonly]").inputValue()).toBe("gwen@example.com");
    expect(await store.db.selectFrom("users").select("email").where("email", "=", "gwen@example.com").execute()).toEqual([]);
    const erinIn = await store.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .innerJoin("organizations", "organizations.id", "memberships.organization_id")
      .select("memberships.role")
      .where("users.email", "=", "erin@example.com")
      .where("organizations.slug", "=", "acme")
      .executeTakeFirst();
    expect(erinIn?.role).toBe("member");
  });

  it("revokes a pending invitation: its link stops working", async () => {
    const link = await invite("late@example.com", "member");
    const row = owner.locator("[data-testid=invitation-row]", { hasText: "late@example.com" });
    await row.locator("button:text-is('Revoke')").click();
    await row.waitFor({ state: "detached" });
    const page = await guest();
    await page.goto(link);
    expect(await page.locator("main .error").textContent()).toMatch(/does not exist or was used/);
  });
});
