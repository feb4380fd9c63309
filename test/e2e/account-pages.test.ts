import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");
const ROOT = "root@example.com";
const MEMBER = "bob@example.com";
/** Belongs to no organization yet (created by an administrator, not yet invited anywhere). */
const LONER = "dana@example.com";
const PASSWORD = "password-123";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/**
 * Issue 12, item 3: the account page (change password, sessions, sign out everywhere) and
 * /admin/users for superusers, in headless Chromium with email not set up.
 */
describe.each(DIALECTS)("account and user pages in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let desk: BrowserContext;
  let phone: BrowserContext;
  let page: Page;

  const shoot = async (p: Page, name: string) => {
    await p.setViewportSize({ width: 390, height: 844 });
    await p.screenshot({ path: join(SHOTS, `${name}-${dialect}-390.png`), fullPage: true });
    await p.setViewportSize({ width: 1280, height: 900 });
    await p.screenshot({ path: join(SHOTS, `${name}-${dialect}-1280.png`), fullPage: true });
  };
  /** The page at 390 px with the sidebar's drawer opened by its Menu toggle, then closed again. */
  const shootDrawer = async (p: Page, name: string) => {
    await p.setViewportSize({ width: 390, height: 844 });
    const sidebar = p.locator("[data-testid=sidebar]");
    expect(await sidebar.isVisible()).toBe(false);
    await p.click("[data-testid=sidebar-toggle]");
    expect(await sidebar.isVisible()).toBe(true);
    await p.screenshot({ path: join(SHOTS, `${name}-${dialect}-390-menu.png`) });
    // Tapping beside the drawer (on its backdrop) closes it.
    await p.mouse.click(370, 400);
    expect(await sidebar.isVisible()).toBe(false);
    await p.setViewportSize({ width: 1280, height: 900 });
    expect(await sidebar.isVisible()).toBe(true);
  };
  /** Every link of the sidebar answers 200 to this browser's session: there are no dead links. */
  const sidebarLinksAnswer = async (p: Page) => {
    const hrefs = await p.locator("[data-testid=sidebar] a").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) expect((await p.request.get(`${server.url}${href}`)).status(), href).toBe(200);
    return hrefs;
  };
  const orgName = (p: Page) => p.locator("[data-testid=org-switcher] .switcher-name").textContent();
  const currentEntry = (p: Page) => p.locator("[data-testid=account-sections] a[aria-current=page]").allTextContents();
  const rows = (p: Page) => p.locator("[data-testid=session-row]");
  const userRow = (email: string) => page.locator(`[data-testid=user-row][data-email="${email}"]`);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: ROOT, password: PASSWORD, name: "Root", superuser: true } });
    await createUser({ ctx, input: { email: MEMBER, password: PASSWORD, name: "Bob" } });
    await createUser({ ctx, input: { email: LONER, password: PASSWORD } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: ROOT } });
    await createOrganization({ ctx, input: { slug: "bobs", name: "Bob's shop", owner: MEMBER } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
    desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: IPHONE });
    page = await desk.newPage();
    await signIn(page, server.url, ROOT, /\/orgs\/acme$/);
    await signIn(await phone.newPage(), server.url, ROOT, /\/orgs\/acme$/);
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("lists both sessions from the sidebar's Account entry, this device marked, in human dates", async () => {
    await page.click("[data-testid=account-sections] a:text-is('Account')");
    await page.waitForURL(/\/account$/);
    await waitFor(async () => (await rows(page).count()) === 2, 10_000, "two sessions");
    const current = page.locator("[data-testid=session-row][data-current=true]");
    expect(await current.textContent()).toContain("This device");
    const other = (await rows(page).nth(1).textContent()) ?? "";
    expect(other).toContain("Mobile Safari 18");
    expect(other).toContain("Apple iPhone, iOS 18.1");
    expect(other).toMatch(/\d+s ago/);
    expect(await page.locator("main").textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    await shoot(page, "account");
  });

  it("keeps the sidebar on /account, about the organization last opened, and its links lead to pages", async () => {
    await page.goto(`${server.url}/orgs/bobs`);
    await waitFor(() => page.evaluate(() => document.cookie.includes("telltale_org=bobs")), 10_000, "bobs remembered");
    await page.goto(`${server.url}/account`);
    expect(await page.locator("[data-testid=sidebar]").isVisible()).toBe(true);
    expect(await orgName(page)).toBe("Bob's shop");
    expect(await currentEntry(page)).toEqual(["Account"]);
    expect(await page.locator("[data-testid=account-sections] .sections-group").allTextContents()).toEqual(["Admin"]);
    const hrefs = await sidebarLinksAnswer(page);
    expect(hrefs).toEqual(expect.arrayContaining(["/orgs/bobs/issues", "/orgs/acme", "/orgs", "/account", "/admin/users"]));
    await page.click("[data-testid=sections] a:text-is('Members')");
    await page.waitForURL(/\/orgs\/bobs\/members$/);
    expect(await page.textContent("h1")).toContain("Members");
    await page.goto(`${server.url}/account`);
    await shootDrawer(page, "account");
  });

  it("signs out the other session, which is then sent to sign in", async () => {
    await page.click("[data-testid=revoke-session-form] button");
    await waitFor(async () => (await rows(page).count()) === 1, 10_000, "one session left");
    const other = await phone.newPage();
    await other.goto(`${server.url}/orgs/acme`);
    await other.waitForURL(/\/login/);
  });

  it("changes the password only with the right current one", async () => {
    const form = page.locator("[data-testid=change-password-form]");
    await form.locator("input[name=current]").fill("not my password");
    await form.locator("input[name=password]").fill("a second password");
    await form.locator("button[type=submit]").click();
    await expect(form.locator("[role=alert]").textContent()).resolves.toBe("The current password is wrong.");
    await form.locator("input[name=current]").fill(PASSWORD);
    await form.locator("input[name=password]").fill("a second password");
    await form.locator("button[type=submit]").click();
    await form.locator("[role=status]").waitFor();
    expect(await form.locator("[role=status]").textContent()).toBe("Password changed. Your other sessions were signed out.");
    expect(await rows(page).count()).toBe(1);
  });

  it("shows superusers the users, with organizations and activity, from the sidebar", async () => {
    await page.goto(`${server.url}/orgs/acme`);
    await page.click("[data-testid=account-sections] a:text-is('Users')");
    await page.waitForURL(/\/admin\/users$/);
    await userRow(MEMBER).waitFor();
    const bob = (await userRow(MEMBER).textContent()) ?? "";
    expect(bob).toContain("Bob's shop");
    expect(bob).toContain("owner");
    expect(bob).toContain("never");
    expect(await userRow(ROOT).textContent()).toContain("superuser");
    // Nobody removes their own flag or deletes themselves: the buttons are not there.
    expect(await userRow(ROOT).locator("button:text-is('Remove superuser'), button:text-is('Delete')").count()).toBe(0);
  });

  it("creates a user, makes and unmakes a superuser, and shows a reset link to copy without email", async () => {
    const form = page.locator("[data-testid=new-user-form]");
    await form.locator("input[name=email]").fill("carol@example.com");
    await form.locator("input[name=name]").fill("Carol <b>bold</b>");
    await form.locator("input[name=password]").fill("carol's password");
    await form.locator("button[type=submit]").click();
    await userRow("carol@example.com").waitFor();
    // Typed markup is shown as text.
    expect(await userRow("carol@example.com").textContent()).toContain("Carol <b>bold</b>");
    await userRow("carol@example.com").locator("button:text-is('Make superuser')").click();
    await userRow("carol@example.com").locator("button:text-is('Remove superuser')").waitFor();
    expect(await userRow("carol@example.com").textContent()).toContain("superuser");
    await userRow("carol@example.com").locator("button:text-is('Remove superuser')").click();
    await userRow("carol@example.com").locator("button:text-is('Make superuser')").waitFor();
    await userRow("carol@example.com").locator("button:text-is('Reset link')").click();
    const link = userRow("carol@example.com").locator("[data-testid=reset-link] code");
    await link.waitFor();
    expect(await link.textContent()).toMatch(new RegExp(`^${server.url}/reset-password/[\\w-]{43}$`));
    await shoot(page, "admin-users");
  });

  it("keeps the sidebar on /admin/users, Users marked under Admin, its links leading to pages", async () => {
    await page.goto(`${server.url}/admin/users`);
    expect(await orgName(page)).toBe("Acme");
    expect(await currentEntry(page)).toEqual(["Users"]);
    await sidebarLinksAnswer(page);
    await shootDrawer(page, "admin-users");
    await page.click("[data-testid=account-sections] a:text-is('Account')");
    await page.waitForURL(/\/account$/);
    await page.click("[data-testid=account-sections] a:text-is('Users')");
    await page.waitForURL(/\/admin\/users$/);
    await userRow(ROOT).waitFor();
  });

  it("refuses to delete the last owner of an organization, and deletes another user", async () => {
    page.on("dialog", (dialog) => void dialog.accept());
    await userRow(MEMBER).locator("button:text-is('Delete')").click();
    await expect(userRow(MEMBER).locator("[role=alert]").textContent()).resolves.toBe(
      `${MEMBER} is the last owner of bobs; make someone else an owner there first.`,
    );
    await userRow("carol@example.com").locator("button:text-is('Delete')").click();
    await waitFor(async () => (await userRow("carol@example.com").count()) === 0, 10_000, "carol's row to go");
  });

  it("gives a member the Account entry but not Users, and the not-found page at /admin/users", async () => {
    const member = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signIn(member, server.url, MEMBER, /\/orgs\/bobs$/);
      await member.locator("[data-testid=account-sections] a").first().waitFor();
      expect(await member.locator("[data-testid=account-sections] a").allTextContents()).toEqual(["Account"]);
      // Outside the organization the same sidebar, still without the Admin entry, and every link answers.
      for (const path of ["/account", "/orgs"]) {
        await member.goto(`${server.url}${path}`);
        expect(await orgName(member), path).toBe("Bob's shop");
        expect(await member.locator("[data-testid=account-sections] a").allTextContents(), path).toEqual(["Account"]);
        expect(await member.locator("[data-testid=account-sections] .sections-group").count(), path).toBe(0);
        expect(await sidebarLinksAnswer(member), path).not.toContain("/admin/users");
      }
      await member.click("[data-testid=sections] a:text-is('Teams')");
      await member.waitForURL(/\/orgs\/bobs\/teams$/);
      const response = await member.goto(`${server.url}/admin/users`);
      expect(response?.status()).toBe(404);
      expect(await member.locator("[data-testid=users]").count()).toBe(0);
    } finally {
      await member.close();
    }
  });

  it("gives someone in no organization a sidebar of their own entries only, no switchers", async () => {
    const loner = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signIn(loner, server.url, LONER, /\/orgs$/);
      for (const path of ["/orgs", "/account"]) {
        await loner.goto(`${server.url}${path}`);
        expect(await loner.locator("[data-testid=sidebar]").isVisible(), path).toBe(true);
        expect(
          await loner.locator("[data-testid=org-switcher], [data-testid=project-switcher], [data-testid=sections]").count(),
          path,
        ).toBe(0);
        expect(await sidebarLinksAnswer(loner), path).toEqual(["/account"]);
      }
      expect(await currentEntry(loner)).toEqual(["Account"]);
    } finally {
      await loner.close();
    }
  });

  it("tells users email is not set up on the forgot-password page", async () => {
    const anonymous = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await anonymous.goto(`${server.url}/forgot-password`);
      expect(await anonymous.locator("[data-testid=email-off]").textContent()).toContain("telltale user set-password");
      await shoot(anonymous, "forgot-password-no-email");
    } finally {
      await anonymous.close();
    }
  });

  it("signs out everywhere, this session included, back to the sign-in page", async () => {
    await page.goto(`${server.url}/account`);
    await page.click("button:text-is('Sign out everywhere')");
    await page.waitForURL(/\/login/);
    await page.goto(`${server.url}/account`);
    await page.waitForURL(/\/login\?next=%2Faccount$/);
  });
});
