import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { launchBrowser, signIn } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { runNodeSession } from "../support/session-clients";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");

/**
 * Issue 13, item 4, end to end: @sentry/node processes (one crashes) and @sentry/browser in
 * headless Chromium (an error nobody handles) send their sessions to Telltale; the releases
 * pages show the crash-free sessions and users, adoption and the health chart, per environment.
 */
describe.each(DIALECTS)("release health in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let appServer: Server;
  let projectId = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "web", platform: "javascript" } });
    projectId = project.id;
    await updateFilters({ ctx, input: { projectId, changes: { localhost: false } } });
    // A release made by the API (as `sentry-cli releases new` does) that no session names.
    await ctx.releases.upsertRelease(
      org.id,
      { version: "shop@1.0.0", ref: null, url: null, dateStarted: null, dateReleased: null },
      [projectId],
      Date.now() - 60_000,
    );
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    const dsn = buildDsn(server.url, key.public_key, projectId);

    // In production, ada's process crashes and later exits cleanly; dee runs the previous release;
    // in staging, cy's process exits.
    const runs = await Promise.all([
      runNodeSession(dsn, "crash", { release: "shop@3.0.0", user: "ada" }),
      runNodeSession(dsn, "exit", { release: "shop@3.0.0", user: "ada" }),
      runNodeSession(dsn, "exit", { release: "shop@2.9.0", user: "dee" }),
      runNodeSession(dsn, "exit", { release: "shop@3.0.0", environment: "staging", user: "cy" }),
    ]);
    expect(runs).toEqual([1, 0, 0, 0]);

    // bob's page load in Chromium: an error reaches the global handler (the session ends `unhandled`).
    const sdk = await browserSdkBundle();
    appServer = createServer((req, res) => {
      if (req.url === "/sdk.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        return res.end(sdk);
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><html><head><script src="/sdk.js"></script><script>
        Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop@3.0.0", environment: "production", initialScope: { user: { id: "bob" } } });
        setTimeout(() => { throw new Error("widget exploded"); }, 200);
      </script></head><body>shop</body></html>`);
    });
    await new Promise<void>((r) => appServer.listen(0, "127.0.0.1", r));
    browser = await launchBrowser();
    const app = await browser.newPage();
    await app.goto(`http://127.0.0.1:${(appServer.address() as AddressInfo).port}/`);
    await waitFor(
      async () =>
        await store.db
          .selectFrom("session_counts")
          .select("quantity")
          .where("project_id", "=", projectId)
          .where("status", "=", "unhandled")
          .executeTakeFirst(),
      30_000,
      "the browser's session to be digested",
    );
    await app.close();
    await queueDrained(store);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => appServer?.close(r));
    await server?.stop();
    await store?.cleanup();
  });

  const shootBoth = async (name: string) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${dialect}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const cells = async (version: string) => {
    const row = page.locator("[data-testid=release-row]", { hasText: version });
    const text = async (id: string) => (await row.locator(`[data-testid=${id}]`).textContent())?.trim();
    return [await text("crash-free-sessions"), await text("crash-free-users"), await text("adoption")];
  };

  it("lists each release's crash-free sessions and users and adoption, in all environments or one", async () => {
    await page.goto(`${server.url}/orgs/shop/projects/web/releases`);
    // All environments: 4 sessions of 3.0.0, one crashed; users ada (crashed), bob, cy; 4 of the 5 sessions today.
    expect(await cells("shop@3.0.0")).toEqual(["75 %", "66.6 %", "80 %"]);
    expect(await cells("shop@2.9.0")).toEqual(["100 %", "100 %", "20 %"]);
    expect(await cells("shop@1.0.0")).toEqual(["—", "—", "—"]);
    await shootBoth("release-health-list");
    // Issue 38, point 23: at 390 px the table fits its panel (less used columns are left out) instead of being cut off.
    await page.setViewportSize({ width: 390, height: 900 });
    const fit = await page
      .locator("[data-testid=releases]")
      .evaluate((t) => ({ table: t.scrollWidth, box: (t.parentElement ?? t).clientWidth }));
    expect(fit.table).toBeLessThanOrEqual(fit.box);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.selectOption("[data-testid=environment-filter] select", "production");
    await page.click("[data-testid=environment-filter] button");
    await page.waitForURL(/\/releases\?environment=production$/);
    // Production: ada's two sessions (one crashed) and bob's (unhandled, not a crash); ada's the only crashed user of two.
    expect(await cells("shop@3.0.0")).toEqual(["66.6 %", "50 %", "75 %"]);
    expect(await cells("shop@2.9.0")).toEqual(["100 %", "100 %", "25 %"]);
    expect(await page.locator("[data-testid=release-row]", { hasText: "shop@1.0.0" }).count()).toBe(0);
  });

  it("shows the release's health panel and chart, filtered by environment", async () => {
    await page.goto(`${server.url}/orgs/shop/projects/web/releases?environment=production`);
    await page.click("a:text-is('shop@3.0.0')");
    await page.waitForURL(/\/releases\/shop%403\.0\.0\?environment=production$/);
    const fact = async (id: string) => (await page.locator(`[data-testid=release-health] [data-testid=${id}]`).textContent())?.trim();
    expect(await fact("crash-free-sessions")).toBe("66.6 %");
    expect(await fact("crash-free-users")).toBe("50 %");
    expect([await fact("sessions"), await fact("users"), await fact("crashed"), await fact("unhandled"), await fact("errored")]).toEqual([
      "3",
      "2",
      "1",
      "1",
      "0",
    ]);
    expect(await page.locator("[data-testid=health-chart] rect").count()).toBeGreaterThan(0);
    expect(await page.locator("[data-testid=health-chart-line] title").first().textContent()).toMatch(/crash-free sessions 66\.6 %$/);
    await shootBoth("release-health-page");

    await page.click("[data-testid=health-24h]");
    await page.waitForURL(/environment=production&period=24h$/);
    expect(await fact("crash-free-sessions")).toBe("66.6 %");
    await page.selectOption("[data-testid=environment-filter] select", "staging");
    await page.click("[data-testid=environment-filter] button");
    await page.waitForURL(/\?environment=staging&period=24h$/);
    expect([await fact("crash-free-sessions"), await fact("sessions"), await fact("adoption")]).toEqual(["100 %", "1", "100 %"]);
  });

  it("says when a release had no sessions", async () => {
    await page.goto(`${server.url}/orgs/shop/projects/web/releases/shop%401.0.0`);
    expect(await page.locator("[data-testid=no-sessions]").textContent()).toContain("No sessions");
  });
});
