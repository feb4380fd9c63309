import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createToken } from "../../src/core/tokens/tokens";
import type { User } from "../../src/db/schema";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = "/tmp/shots-audit";

/**
 * The audit log page  in headless Chromium, against the built server: the
 * owner's sign-in and changes made through the web API show up with who, what, when and from
 * where; the filters narrow them; what people typed is shown as text; a member cannot open it.
 */
describe.each(DIALECTS)("the audit log page in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let member: User;
  let token = "";

  const api = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}/api/0${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    const owner = await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    member = await createUser({ ctx, input: { email: "member@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: owner.email } });
    await ctx.directory.addMember(org.id, member.id, "member", [], Date.now());
    token = (await createToken({ ctx, input: { user: owner.email } })).token;
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  async function ownerPage(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await signIn(page, server.url, "owner@example.com", /\/orgs\/acme$/);
    return page;
  }

  it("shows sign-ins and changes with who, what, when and from where, filters them, and renders names as text", async () => {
    expect((await api("PUT", `/organizations/acme/members/${member.id}/`, { orgRole: "admin" })).status).toBe(200);
    expect((await api("PUT", "/organizations/acme/", { name: "Acme <img src=x onerror=alert(1)>" })).status).toBe(200);
    const page = await ownerPage(1280);
    await page.click("nav a:text-is('Audit log')");
    await page.waitForURL(/\/orgs\/acme\/audit-log$/);
    const entries = page.locator("[data-testid=audit-entry]");
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute("data-event")))).toEqual([
      "user.login",
      "org.edit",
      "member.edit",
    ]);
    const edit = entries.filter({ has: page.locator("text=changed a member's role") });
    expect(await edit.innerText()).toContain("role: member → admin");
    expect(await edit.innerText()).toContain("API token");
    // Times as people read them, the exact time on hover; never a raw ISO string in the text.
    expect(await edit.locator("time").innerText()).toMatch(/^\d+(s|min|h|d) ago$/);
    expect(await page.locator("main").innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    const rename = entries.filter({ has: page.locator("text=changed the organization") });
    expect(await rename.innerText()).toContain("name: Acme → Acme <img src=x onerror=alert(1)>");
    expect(await page.locator("[data-testid=audit-entries] img").count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/audit-log-1280-${dialect}.png`, fullPage: true });

    await page.selectOption("select[name=event]", "member.edit");
    await page.click("[data-testid=audit-filters] button[type=submit]");
    await page.waitForURL(/event=member.edit/);
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute("data-event")))).toEqual(["member.edit"]);
    // A range that ends before today holds nothing.
    await page.goto(`${server.url}/orgs/acme/audit-log?end=2020-01-01`);
    expect(await page.locator("main").innerText()).toContain("No entries match these filters.");
    await page.goto(`${server.url}/orgs/acme/audit-log?start=not-a-date`);
    expect(await page.locator("main .error").innerText()).toMatch(/a date like/);
    await page.close();
  });

  it("fits a 390 px screen", async () => {
    const page = await ownerPage(390);
    await page.goto(`${server.url}/orgs/acme/audit-log`);
    expect(await page.locator("[data-testid=audit-entry]").count()).toBeGreaterThan(2);
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(scroll).toBeLessThanOrEqual(inner);
    await page.screenshot({ path: `${SHOTS}/audit-log-390-${dialect}.png`, fullPage: true });
    await page.close();
  });

  it("is not there for a member: no sidebar entry, and the page is not found", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "member@example.com", /\/orgs\/acme$/);
    expect(await page.locator("nav a:text-is('Audit log')").count()).toBe(0);
    const response = await page.goto(`${server.url}/orgs/acme/audit-log`);
    expect(response?.status()).toBe(404);
    await page.close();
  });
});
