import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { createToken } from "../../src/core/tokens/tokens";
import { launchBrowser, signIn } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { sentryCli } from "../support/clients";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");

const CHECKOUT = `const assertCardNumber = (card) => {
  if (card.length < 4) {
    throw new Error("payment declined");
  }
};

export function submitOrder(card) {
  assertCardNumber(card);
  return card.slice(-4);
}
`;

/**
 * Issue 13: a minified app in headless Chromium throws; @sentry/browser reports it with the debug
 * id sentry-cli injected; the real sentry-cli uploaded the bundle's source map to Telltale; the
 * issue page shows the original file, line, function and code, and the raw view the minified stack.
 */
describe.each(DIALECTS)("source maps end to end in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let appServer: Server;
  let appUrl = "";
  let dsn = "";
  let work = "";
  let token = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "web", platform: "javascript" } });
    await updateFilters({ ctx, input: { projectId: project.id, changes: { localhost: false } } });
    ({ token } = await createToken({ ctx, input: { user: "dev@example.com", name: "ci", scopes: ["project:releases", "org:read"] } }));
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    dsn = buildDsn(server.url, key.public_key, project.id);

    // The customer's build: minified by esbuild with a source map, debug ids injected and the
    // maps uploaded by the real sentry-cli, as its documentation says.
    work = mkdtempSync(join(tmpdir(), "telltale-e2e-maps-"));
    mkdirSync(join(work, "src"));
    writeFileSync(join(work, "src", "checkout.js"), CHECKOUT);
    writeFileSync(
      join(work, "src", "main.js"),
      'import { submitOrder } from "./checkout.js";\nwindow.runCheckout = () => submitOrder("1");\n',
    );
    buildSync({
      entryPoints: [join(work, "src", "main.js")],
      bundle: true,
      minify: true,
      sourcemap: true,
      outfile: join(work, "static", "app.min.js"),
      logLevel: "silent",
    });
    for (const args of [
      ["sourcemaps", "inject", join(work, "static")],
      ["sourcemaps", "upload", "--org", "shop", "--project", "web", join(work, "static")],
    ]) {
      const run = await sentryCli(server.url, token, args);
      expect(run.code, run.out).toBe(0);
    }
    // A later build whose maps were never uploaded: its events stay minified and say why.
    mkdirSync(join(work, "v2"));
    writeFileSync(
      join(work, "v2", "main.js"),
      'import { submitOrder } from "../src/checkout.js";\nwindow.runCheckout = () => submitOrder(String(1));\n',
    );
    buildSync({
      entryPoints: [join(work, "v2", "main.js")],
      bundle: true,
      minify: true,
      sourcemap: true,
      outfile: join(work, "v2", "static", "app.min.js"),
      logLevel: "silent",
    });
    const injected = await sentryCli(server.url, token, ["sourcemaps", "inject", join(work, "v2", "static")]);
    expect(injected.code, injected.out).toBe(0);
    const sdk = await browserSdkBundle();
    const app = readFileSync(join(work, "static", "app.min.js"), "utf8");
    const appV2 = readFileSync(join(work, "v2", "static", "app.min.js"), "utf8");
    appServer = createServer((req, res) => {
      if (req.url === "/sdk.js" || req.url?.endsWith("/static/app.min.js")) {
        res.writeHead(200, { "content-type": "text/javascript" });
        return res.end(req.url === "/sdk.js" ? sdk : req.url.startsWith("/v2/") ? appV2 : app);
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        '<!doctype html><html><head><script src="/sdk.js"></script><script src="static/app.min.js"></script></head><body><button id="pay" onclick="runCheckout()">Pay</button></body></html>',
      );
    });
    await new Promise<void>((r) => appServer.listen(0, "127.0.0.1", r));
    appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => appServer?.close(r));
    await server?.stop();
    await store?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const shootBoth = async (p: Page, name: string) => {
    for (const width of [390, 1280]) {
      await p.setViewportSize({ width, height: 900 });
      await p.screenshot({ path: join(SHOTS, `${name}-${dialect}-${width}.png`), fullPage: true });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  };

  it("shows the error thrown by minified code with its original file, line, function and source", async () => {
    const tab = await browser.newPage();
    await tab.goto(appUrl);
    // Clicking runs the minified code from the page's own handler; the SDK's global handler reports it.
    await tab.evaluate(
      (dsn) => (window as unknown as { Sentry: { init(o: object): void } }).Sentry.init({ dsn, release: "shop@1.0.0" }),
      dsn,
    );
    await tab.click("#pay");
    await tab.evaluate(() => (window as unknown as { Sentry: { flush(t: number): Promise<boolean> } }).Sentry.flush(5000));
    await tab.close();
    await queueDrained(store);

    await page.goto(`${server.url}/orgs/shop/issues?project=web`);
    await page.locator("[data-testid=issue-row] .title a").first().click();
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    const top = page.locator("[data-testid=frame]").first();
    expect(await top.locator("summary").textContent()).toMatch(/assertCardNumber in src\/checkout\.js:3:\d+/);
    expect(await top.locator(".line.current").textContent()).toContain('throw new Error("payment declined");');
    expect(await page.locator("[data-testid=processing-errors]").count()).toBe(0);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `issue-symbolicated-${dialect}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click("a.badge:text-is('Raw')");
    await page.waitForURL(/view=raw/);
    expect(await page.locator("[data-testid=raw-stack]").textContent()).toContain("/static/app.min.js:");
  });

  it("lists the release the event named, with its new issue and its deploy, on the releases pages", async () => {
    const deployed = await sentryCli(server.url, token, ["deploys", "new", "--org", "shop", "--release", "shop@1.0.0", "-e", "production"]);
    expect(deployed.code, deployed.out).toBe(0);
    await page.goto(`${server.url}/orgs/shop/projects/web/releases`);
    const row = page.locator("[data-testid=release-row]", { hasText: "shop@1.0.0" });
    // Crash-free sessions, crash-free users, adoption, events, new issues, commits: the page load's
    // session ended `unhandled` (not a crash) and named no user; it is the project's only session.
    expect(await row.locator("td.num").allTextContents()).toEqual(["100 %", "—", "100 %", "1", "1", "0"]);
    expect(await row.textContent()).toContain("production");
    await shootBoth(page, "releases");
    await row.locator("a").click();
    await page.waitForURL(/\/releases\/shop%401\.0\.0$/);
    expect(await page.locator("[data-testid=release-version]").textContent()).toBe("shop@1.0.0");
    expect(await page.locator("[data-testid=release-issues]").textContent()).toContain("payment declined");
    expect(await page.locator("[data-testid=release-deploys]").textContent()).toContain("production");
    await shootBoth(page, "release");
  });

  it("says on the event page why a build whose maps were not uploaded stays minified", async () => {
    const tab = await browser.newPage();
    await tab.goto(`${appUrl}v2/`);
    await tab.evaluate(
      (dsn) => (window as unknown as { Sentry: { init(o: object): void } }).Sentry.init({ dsn, release: "shop@2.0.0" }),
      dsn,
    );
    await tab.click("#pay");
    await tab.evaluate(() => (window as unknown as { Sentry: { flush(t: number): Promise<boolean> } }).Sentry.flush(5000));
    await tab.close();
    await queueDrained(store);
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=release:shop@2.0.0`);
    await page.locator("[data-testid=issue-row] .title a").first().click();
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    const why = page.locator("[data-testid=processing-errors]");
    expect(await why.textContent()).toContain("No source map was found");
    expect(await why.textContent()).toContain("/v2/static/app.min.js");
    await shootBoth(page, "issue-unsymbolicated");
  });
});
