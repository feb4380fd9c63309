import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import type { Role } from "../../src/db/schema";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/** Screenshots for a human to look at; the directory is outside the repository. */
const SHOTS = process.env.TELLTALE_SCREENSHOTS ?? "";

describe.each(DIALECTS)("refusals in the settings UI on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let projectId = 0;
  let orgId = 0;
  let devId = 0;
  const keys = "/orgs/acme/projects/web/settings/keys";
  const setRole = (role: Role) =>
    store.db.updateTable("memberships").set({ role }).where("organization_id", "=", orgId).where("user_id", "=", devId).execute();
  const keyCount = async () =>
    (await store.db.selectFrom("project_keys").select("id").where("project_id", "=", projectId).execute()).length;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    devId = (await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } })).id;
    orgId = (await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } })).id;
    await store.db
      .insertInto("memberships")
      .values({ organization_id: orgId, user_id: devId, role: "admin", created_at: Date.now() })
      .execute();
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "web", platform: "node" } })).project.id;
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "dev@example.com", /\/orgs\/acme$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("shows a member who clicks Rotate on a page loaded as admin the not-allowed message, not an error page", async () => {
    await page.goto(`${server.url}${keys}`);
    await setRole("member"); // demoted while the page was open
    const form = page.locator("[data-testid=rotate-key-form]").first();
    await form.locator("button[type=submit]").click();
    await expect(form.locator("[role=alert]").textContent()).resolves.toBe(NOT_ALLOWED);
    expect(await page.locator("h1").textContent()).toContain("Settings");
    expect(await keyCount()).toBe(1);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/keys-refused-${dialect}-${width}.png`, fullPage: true });
      }
    }
  });

  it("hides the key controls from a member and answers the create-project page with not found", async () => {
    await page.goto(`${server.url}${keys}`);
    expect(await page.locator("[data-testid=key-row]").count()).toBe(1);
    expect(await page.locator("[data-testid=rotate-key-form]").count()).toBe(0);
    const response = await page.goto(`${server.url}/orgs/acme/projects/new`);
    expect(response?.status()).toBe(404);
  });

  it("lets an admin rotate: the old key shows disabled beside the new one", async () => {
    await setRole("admin");
    await page.goto(`${server.url}${keys}`);
    const form = page.locator("[data-testid=rotate-key-form]").first();
    await form.locator("button[type=submit]").click();
    await page.locator("[data-testid=key-row] .badge.off").waitFor();
    expect(await keyCount()).toBe(2);
    if (SHOTS) {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${SHOTS}/keys-admin-${dialect}-${width}.png`, fullPage: true });
      }
    }
  });

  it("signs out through the public logout action", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click("header button:text-is('Sign out')");
    await page.waitForURL(/\/login$/);
    const response = await page.goto(`${server.url}${keys}`);
    expect(response?.url()).toContain("/login?next=");
  });
});
