import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");

/**
 * Issue 12, API tokens in the UI: create a scoped token, see it once, use it against the real
 * web API (reads allowed, a change refused by scope), see it listed with its last use, revoke it
 * (401 from then on). In headless Chromium, on both databases.
 */
describe.each(DIALECTS)("personal API tokens in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let token = "";

  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: "owner@example.com" } });
    await createProject({ ctx, input: { org: "acme", slug: "web" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "owner@example.com", /\/orgs\/acme$/);
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("creates a read-only token from the sidebar's page and shows it once", async () => {
    await page.click("a:text-is('API tokens')");
    await page.waitForURL(/\/orgs\/acme\/tokens$/);
    await page.locator("text=No tokens yet.").waitFor();
    await page.fill("input[name=name]", "CI reader");
    await page.click("button:text-is('Create token')");
    const shown = page.locator("[data-testid=new-token] code");
    await shown.waitFor();
    token = (await shown.textContent()) ?? "";
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    await expect(page.locator("[data-testid=new-token]").textContent()).resolves.toContain("Copy it now: it is not shown again.");
    const row = page.locator("[data-testid=token-row]");
    await waitFor(async () => (await row.count()) === 1, 10_000, "the new token to be listed");
    const text = (await row.textContent()) ?? "";
    expect(text).toContain("CI reader");
    expect(text).toContain("project:read, event:read");
    expect(text).toContain(token.slice(0, 13));
    expect(text).not.toContain(token);
    await page.screenshot({ path: join(SHOTS, `api-tokens-created-${dialect}-1280.png`), fullPage: true });
  });

  it("reads with the token and is refused a change its scopes do not allow", async () => {
    const read = await api("/api/0/projects/acme/web/issues/");
    expect(read.status).toBe(200);
    const change = await api("/api/0/organizations/acme/issues/1/", { method: "PUT", body: { status: "resolved" } });
    expect(change.status).toBe(403);
    await page.reload();
    const row = page.locator("[data-testid=token-row]");
    await expect(row.locator("td").nth(3).textContent()).resolves.toMatch(/just now|\d+ ?(s|sec)/);
    await page.screenshot({ path: join(SHOTS, `api-tokens-${dialect}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `api-tokens-${dialect}-390.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("creates an organization token for CI (sntrys_, bound to this organization) and revokes it", async () => {
    const section = page.locator("[data-testid=org-tokens]");
    await section.locator("input[name=name]").fill("GitHub Actions");
    await section.locator("button:text-is('Create organization token')").click();
    const shown = section.locator("[data-testid=new-token] code");
    await shown.waitFor();
    const orgToken = (await shown.textContent()) ?? "";
    expect(orgToken).toMatch(/^sntrys_[A-Za-z0-9+/=]+_[A-Za-z0-9+/]+$/);
    const payload = JSON.parse(Buffer.from(orgToken.split("_")[1]!, "base64").toString("utf8")) as { org: string };
    expect(payload.org).toBe("acme");
    const projects = await fetch(`${server.url}/api/0/organizations/acme/projects/`, { headers: { authorization: `Bearer ${orgToken}` } });
    expect(projects.status).toBe(200);
    const row = section.locator("[data-testid=org-token-row]");
    await waitFor(async () => (await row.count()) === 1, 10_000, "the organization token to be listed");
    await expect(row.textContent()).resolves.toContain("owner@example.com");
    await page.screenshot({ path: join(SHOTS, `api-tokens-org-${dialect}-1280.png`), fullPage: true });
    await page.click("button[aria-label='Revoke organization token GitHub Actions']");
    await section.locator("[data-testid=org-token-row] .badge:text-is('revoked')").waitFor();
    const after = await fetch(`${server.url}/api/0/organizations/acme/projects/`, { headers: { authorization: `Bearer ${orgToken}` } });
    expect(after.status).toBe(401);
  });

  it("revokes the token: listed as revoked, and the API answers 401", async () => {
    await page.click("button[aria-label='Revoke CI reader']");
    await page.locator("[data-testid=token-row] .badge:text-is('revoked')").waitFor();
    const refused = await api("/api/0/projects/acme/web/issues/");
    expect(refused.status).toBe(401);
  });
});
