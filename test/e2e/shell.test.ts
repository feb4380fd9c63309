import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, newEventId, send } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

/**
 * The application shell: the sidebar (sections, switchers, drawer), the layout at 390 px and the
 * two themes. SCREENSHOTS=dir keeps a picture of each page at both widths and in both themes.
 */
const SHOTS = process.env.SCREENSHOTS;
const LONG_TITLE = "TypeError: Cannot read properties of undefined (reading 'checkoutTotal') while rendering the basket summary";

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const sectionNames = (page: Page) => page.locator("[data-testid=sections] a").allTextContents();

/** The sidebar of an owner once a project is chosen: its project sections, then the organization's. */
const WITH_PROJECT = [
  "Projects",
  "Issues",
  "Releases",
  "Alerts",
  "Metric alerts",
  "Stats",
  "Settings",
  "Members",
  "Teams",
  "API tokens",
  "Dead letters",
  "Audit log",
];

describe("the application shell in Chromium", () => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  const traceId = newEventId();

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", name: "Shop", owner: "dev@example.com" } });
    await createOrganization({ ctx, input: { slug: "zoo", name: "Zoo", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", name: "API", platform: "node" } });
    await createProject({ ctx, input: { org: "shop", slug: "web", name: "Web", platform: "javascript" } });
    await updateFilters({ ctx, input: { projectId: project.id, changes: { localhost: false } } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });

    const end = Date.now() / 1000;
    const spanId = newEventId().slice(0, 16);
    const trace = { trace_id: traceId, span_id: spanId, op: "http.server", status: "ok" };
    const tx = {
      event_id: newEventId(),
      type: "transaction",
      transaction: "GET /checkout",
      start_timestamp: end - 2,
      timestamp: end,
      contexts: { trace },
    };
    const error = {
      event_id: newEventId(),
      message: LONG_TITLE,
      level: "error",
      platform: "node",
      timestamp: end,
      contexts: { trace: { trace_id: traceId, span_id: spanId } },
    };
    const url = `${server.url}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
    for (const item of [
      { type: "transaction", payload: JSON.stringify(tx) },
      { type: "event", payload: JSON.stringify(error) },
    ]) {
      expect((await send(url, { body: buildEnvelope({}, [item]) })).status).toBe(200);
    }
    await queueDrained(store);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  async function signedIn(width: number, colorScheme: "light" | "dark" = "light"): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
    await signIn(page, server.url, "dev@example.com", /\/orgs\/[a-z]+$/);
    return page;
  }

  it("lists exactly the sections that exist, the project ones once a project is chosen, and none answers other than 200", async () => {
    const page = await signedIn(1280);
    await page.goto(`${server.url}/orgs/shop`);
    expect(await sectionNames(page)).toEqual([
      "Projects",
      "Issues",
      "Metric alerts",
      "Settings",
      "Members",
      "Teams",
      "API tokens",
      "Dead letters",
      "Audit log",
    ]);
    await page.goto(`${server.url}/orgs/shop/issues?project=api`);
    expect(await sectionNames(page)).toEqual(WITH_PROJECT);
    expect(await page.locator("[data-testid=sections] a[aria-current=page]").textContent()).toBe("Issues");
    const hrefs = await page.locator("[data-testid=sidebar] a").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    expect(hrefs.length).toBeGreaterThan(8);
    for (const href of hrefs) expect((await page.request.get(`${server.url}${href}`)).status(), href).toBe(200);
    await page.close();
  });

  it("switches organization and project from the sidebar, keeping the project page", async () => {
    const page = await signedIn(1280);
    await page.goto(`${server.url}/orgs/shop/projects/api/settings/keys`);
    await page.click("[data-testid=project-switcher] summary");
    await page.click("[data-testid=project-switcher] a:text-is('Web')");
    await page.waitForURL(/\/orgs\/shop\/projects\/web\/settings\/keys$/);
    await expect(page.textContent("h1")).resolves.toContain("Web");
    await page.goto(`${server.url}/orgs/shop/issues`);
    await page.click("[data-testid=project-switcher] summary");
    await page.click("[data-testid=project-switcher] a:text-is('API')");
    await page.waitForURL(/\/orgs\/shop\/issues\?project=api$/);
    await page.click("[data-testid=org-switcher] summary");
    await page.click("[data-testid=org-switcher] a:text-is('Zoo')");
    await page.waitForURL(/\/orgs\/zoo$/);
    await expect(page.textContent("h1")).resolves.toContain("Zoo");
    await page.close();
  });

  it("names the page's project in the switcher on issue and trace pages, whose URLs do not say it", async () => {
    const page = await signedIn(1280);
    const switcherName = () => page.locator("[data-testid=project-switcher] .switcher-name").textContent();
    await page.goto(`${server.url}/orgs/shop/traces/${traceId}`);
    await waitFor(async () => (await switcherName()) === "API", 10_000, "the trace's project in the switcher");
    expect(await page.locator("main p.muted").first().textContent()).toMatch(/^1 transaction, 1 span, 1 error · /);
    // Project sections follow the named project, so Stats is one click away from the trace.
    expect(await sectionNames(page)).toEqual(WITH_PROJECT);
    await page.click("a[href*='/issues/']");
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+/);
    await waitFor(async () => (await switcherName()) === "API", 10_000, "the issue's project in the switcher");
    await page.click("[data-testid=project-switcher] summary");
    await page.click("[data-testid=project-switcher] a:text-is('Web')");
    await page.waitForURL(/\/orgs\/shop\/issues\?project=web$/);
    expect(await switcherName()).toBe("Web");
    // Leaving the issue for a page about no project forgets it.
    await page.goto(`${server.url}/orgs/shop`);
    await waitFor(async () => (await switcherName()) === "All projects", 10_000, "no project on the organization page");
    await page.close();
  });

  it("has one navigation: project pages repeat no section of the sidebar", async () => {
    const page = await signedIn(1280);
    for (const path of ["/orgs/shop/projects/api/stats", "/orgs/shop/projects/api/settings"]) {
      await page.goto(`${server.url}${path}`);
      const outside = await page.locator(".shell-main a").evaluateAll((links) => links.map((a) => (a.textContent ?? "").trim()));
      for (const section of ["Issues", "Stats", "Settings"]) expect(outside, `${path} repeats "${section}"`).not.toContain(section);
    }
    // The key's buttons sit side by side on a wide screen, not stacked in a column.
    await page.goto(`${server.url}/orgs/shop/projects/api/settings/keys`);
    const disable = await page.locator(".key-actions button:text-is('Disable')").boundingBox();
    const rotate = await page.locator(".key-actions button:text-is('Rotate')").boundingBox();
    expect(rotate?.y).toBe(disable?.y);
    await page.close();
  });

  it("hides the sidebar at 390 px until its toggle opens it, and closes it after a link is followed", async () => {
    const page = await signedIn(390);
    await page.goto(`${server.url}/orgs/shop/issues?project=api`);
    const sidebar = page.locator("[data-testid=sidebar]");
    expect(await sidebar.isVisible()).toBe(false);
    await page.click("[data-testid=sidebar-toggle]");
    expect(await sidebar.isVisible()).toBe(true);
    await shot(page, "sidebar-open-390");
    await page.click("[data-testid=sections] a:text-is('Stats')");
    await page.waitForURL(/\/projects\/api\/stats$/);
    await sidebar.waitFor({ state: "hidden" });
    await page.close();
  });

  it("collapses the sidebar on a wide screen with the same toggle", async () => {
    const page = await signedIn(1280);
    await page.goto(`${server.url}/orgs/shop`);
    const sidebar = page.locator("[data-testid=sidebar]");
    expect(await sidebar.isVisible()).toBe(true);
    await page.click("[data-testid=sidebar-toggle]");
    expect(await sidebar.isVisible()).toBe(false);
    await page.close();
  });

  it("fits every page into 390 px without horizontal scrolling, issue titles keeping whole words", async () => {
    const page = await signedIn(390);
    await page.goto(`${server.url}/orgs/shop/issues`);
    const title = await page.locator("[data-testid=issue-row] .title a").boundingBox();
    // Squeezed by the other columns, a title used to break after every letter.
    expect(title?.width ?? 0).toBeGreaterThan(200);
    await page.click(`text=${LONG_TITLE}`);
    await page.waitForURL(/\/issues\/\d+/);
    const issue = new URL(page.url()).pathname;
    const paths = [
      ["stream", "/orgs/shop/issues"],
      ["issue", issue],
      ["trace", `/orgs/shop/traces/${traceId}`],
      ["stats", "/orgs/shop/projects/api/stats"],
      ["releases", "/orgs/shop/projects/api/releases"],
      ["alerts", "/orgs/shop/projects/api/alerts"],
      ["metric-alerts", "/orgs/shop/metric-alerts"],
      ["settings", "/orgs/shop/projects/api/settings"],
      ["settings-keys", "/orgs/shop/projects/api/settings/keys"],
      ["org", "/orgs/shop"],
      ["dead-letters", "/orgs/shop/dead-letters"],
      ["audit-log", "/orgs/shop/audit-log"],
      ["new-project", "/orgs/shop/projects/new"],
      ["guide", "/orgs/shop/projects/api/setup/node"],
    ] as const;
    for (const [name, path] of paths) {
      await page.goto(`${server.url}${path}`);
      await shot(page, `${name}-390`);
      expect(await page.locator("nav[aria-label=Breadcrumb] li").count(), `${path} has breadcrumbs`).toBeGreaterThanOrEqual(2);
      const { scroll, inner, wide } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        // Named in the failure message: the elements that reach past the right edge.
        wide: [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
          .map((e) => `${e.tagName}.${e.className}`)
          .slice(0, 5),
      }));
      expect(scroll, `${path}: ${wide.join(", ")}`).toBeLessThanOrEqual(inner);
    }
    await page.close();
    if (!SHOTS) return;
    for (const scheme of ["light", "dark"] as const) {
      const wide = await signedIn(1280, scheme);
      for (const [name, path] of [...paths, ["organizations", "/orgs"]]) {
        await wide.goto(`${server.url}${path}`);
        await shot(wide, `${name}-1280-${scheme}`);
      }
      await wide.close();
    }
  });

  it("keeps the sidebar on the organizations list, about the organization last opened, fitting 390 px", async () => {
    const page = await signedIn(390);
    await page.goto(`${server.url}/orgs/zoo`);
    await waitFor(() => page.evaluate(() => document.cookie.includes("telltale_org=zoo")), 10_000, "zoo remembered");
    await page.goto(`${server.url}/orgs`);
    await shot(page, "organizations-390");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.click("[data-testid=sidebar-toggle]");
    expect(await page.locator("[data-testid=org-switcher] .switcher-name").textContent()).toBe("Zoo");
    await shot(page, "organizations-390-menu");
    await page.click("[data-testid=sections] a:text-is('Members')");
    await page.waitForURL(/\/orgs\/zoo\/members$/);
    await page.close();
  });

  it("shows the sign-in page without the shell, fitting 390 px, in both themes", async () => {
    for (const scheme of ["light", "dark"] as const) {
      for (const width of [390, 1280]) {
        const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
        await page.goto(`${server.url}/login`);
        await shot(page, `login-${width}-${scheme}`);
        expect(await page.locator("[data-testid=sidebar]").count()).toBe(0);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.close();
      }
    }
  });

  it("renders a light and a dark theme, following the system setting", async () => {
    const page = await signedIn(1280);
    const colours = () =>
      page.evaluate(() => {
        const panel = document.querySelector(".panel");
        return {
          body: getComputedStyle(document.body).backgroundColor,
          panel: panel ? getComputedStyle(panel).backgroundColor : "",
          text: getComputedStyle(document.body).color,
        };
      });
    await page.emulateMedia({ colorScheme: "light" });
    const light = await colours();
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await colours();
    expect(light.body).toBe("rgb(247, 247, 248)");
    expect(dark.body).not.toBe(light.body);
    expect(dark.panel).not.toBe(light.panel);
    expect(dark.text).not.toBe(light.text);
    await page.close();
  });
});
