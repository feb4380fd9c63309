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

/**
 * Geometry checks instead of pixel diffs: they state what a reader sees (a small dot beside the
 * title, markers inside their panel) and survive colour and font changes. SCREENSHOTS=dir keeps
 * a picture of each page at both widths for a person to look at.
 */
const WIDTHS = [390, 1280];
const SHOTS = process.env.SCREENSHOTS;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not rendered`);
  return found;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

describe("pages in Chromium, as served by default", () => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  const traceId = newEventId();

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", platform: "node" } });
    await updateFilters({ ctx, input: { projectId: project.id, changes: { localhost: false } } });
    // TELLTALE_DEBUG_PAGES is left at its default (off), as in production.
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });

    // One transaction, an error at its first and one at its last instant (where a marker is most
    // likely to stick out), and a warning. Message events have no culprit.
    const end = Date.now() / 1000;
    const start = end - 2;
    const spanId = newEventId().slice(0, 16);
    const trace = { trace_id: traceId, span_id: spanId, op: "http.server", status: "ok" };
    const tx = {
      event_id: newEventId(),
      type: "transaction",
      transaction: "GET /checkout",
      start_timestamp: start,
      timestamp: end,
      contexts: { trace },
    };
    const event = (message: string, level: string, timestamp: number) => ({
      type: "event",
      payload: JSON.stringify({
        event_id: newEventId(),
        message,
        level,
        platform: "node",
        timestamp,
        contexts: { trace: { trace_id: traceId, span_id: spanId } },
        breadcrumbs: {
          values: [
            { timestamp: start, category: "http", message: "POST /pay", level: "error" },
            { timestamp, category: "log", message: "retrying", level: "info" },
          ],
        },
      }),
    });
    const body = buildEnvelope({ trace: { trace_id: traceId } }, [{ type: "transaction", payload: JSON.stringify(tx) }]);
    const url = `${server.url}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
    expect((await send(url, { body })).status).toBe(200);
    for (const [message, level, at] of [
      ["Payment declined at the start", "error", start],
      ["Payment declined at the end", "error", end],
      ["Slow checkout", "warning", end - 1],
    ] as const) {
      expect((await send(url, { body: buildEnvelope({}, [event(message, level, at)]) })).status).toBe(200);
    }
    await queueDrained(store);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  async function signedIn(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
    return page;
  }

  it("answers 404 for the pages that throw on purpose, signed in or not", async () => {
    for (const path of ["/debug/server-error", "/debug/client-error"]) {
      const anonymous = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(anonymous.status, path).toBe(404);
    }
    const page = await signedIn(1280);
    for (const path of ["/debug/server-error", "/debug/client-error"]) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(404);
      await expect(page.textContent("h1")).resolves.toBe("Page not found");
    }
    await page.close();
  });

  for (const width of WIDTHS) {
    it(`shows dates on the organization and project settings pages as how long ago, at ${width} px`, async () => {
      const page = await signedIn(width);
      for (const [path, name] of [
        ["/orgs/shop", "org"],
        ["/orgs/shop/projects/api/settings", "project-settings"],
        ["/orgs/shop/projects/api/settings/keys", "project-keys"],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await shot(page, `${name}-${width}`);
        const times = page.locator("main time");
        expect(await times.count(), path).toBeGreaterThan(0);
        for (const time of await times.all()) {
          expect(await time.textContent()).toMatch(/^\d+(s|min|h|d) ago$/);
          expect(await time.getAttribute("title")).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
        }
        expect(await page.locator("main").textContent(), path).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
      }
      await page.close();
    });

    it(`shows each issue's level as a dot of at most 12 px on its title's line, at ${width} px`, async () => {
      const page = await signedIn(width);
      await page.goto(`${server.url}/orgs/shop/issues`);
      const rows = page.locator("[data-testid=issue-row]");
      expect(await rows.count()).toBe(3);
      await shot(page, `issues-${width}`);
      for (const row of await rows.all()) {
        const dot = await row.locator("[data-testid=level-dot]").boundingBox();
        const title = await row.locator(".title a").boundingBox();
        if (!dot || !title) throw new Error("a row without a level dot or title");
        expect(dot.width).toBeLessThanOrEqual(12);
        expect(dot.height).toBeLessThanOrEqual(12);
        // On the same line: the dot's middle lies within the first line of the title, to its left.
        expect(dot.y + dot.height / 2).toBeGreaterThan(title.y);
        expect(dot.y + dot.height / 2).toBeLessThan(title.y + Math.min(title.height, 24));
        expect(dot.x + dot.width).toBeLessThanOrEqual(title.x);
        // A message event has no culprit: no empty field between separators.
        expect(await row.locator(".muted-small").textContent()).not.toMatch(/·\s*·/);
      }
      await page.close();
    });

    it(`shows breadcrumb levels as small dots on the issue page, at ${width} px`, async () => {
      const page = await signedIn(width);
      await page.goto(`${server.url}/orgs/shop/issues`);
      await page.click("text=Payment declined at the start");
      await page.locator("[data-testid=breadcrumb]").first().waitFor();
      await shot(page, `issue-${width}`);
      const dots = page.locator("[data-testid=breadcrumb] [data-testid=level-dot]");
      expect(await dots.count()).toBe(2);
      for (const dot of await dots.all()) {
        const b = await dot.boundingBox();
        expect(Math.max(b?.width ?? 99, b?.height ?? 99)).toBeLessThanOrEqual(12);
      }
      await page.close();
    });

    it(`draws the trace's error markers inside the waterfall panel, at ${width} px`, async () => {
      const page = await signedIn(width);
      await page.goto(`${server.url}/orgs/shop/traces/${traceId}`);
      const panel = await box(page, "[data-testid=waterfall]");
      await shot(page, `trace-${width}`);
      const markers = page.locator("[data-testid=trace-error-marker]");
      expect(await markers.count()).toBe(3);
      for (const marker of await markers.all()) {
        const m = await marker.boundingBox();
        if (!m) throw new Error("a marker is not rendered");
        expect(m.width).toBeLessThanOrEqual(4);
        expect(m.height).toBeLessThanOrEqual(12);
        expect(m.x).toBeGreaterThanOrEqual(panel.x);
        expect(m.x + m.width).toBeLessThanOrEqual(panel.x + panel.width);
        expect(m.y).toBeGreaterThanOrEqual(panel.y);
        expect(m.y + m.height).toBeLessThanOrEqual(panel.y + panel.height);
        // …and inside its own row, whose right edge is where the trace ends.
        const row = await marker.locator("xpath=ancestor::*[@data-testid='trace-error']").boundingBox();
        if (!row) throw new Error("a marker outside a trace-error row");
        expect(m.x + m.width).toBeLessThanOrEqual(row.x + row.width);
      }
      const dot = await box(page, "[data-testid=trace-error] [data-testid=level-dot]");
      expect(Math.max(dot.width, dot.height)).toBeLessThanOrEqual(12);
      await page.close();
    });
  }

  // Last: merging leaves two issues in the stream the tests above count.
  it("names the merged issue by its short id", async () => {
    const page = await signedIn(1280);
    await page.goto(`${server.url}/orgs/shop/issues`);
    for (const id of ["API-1", "API-2"]) await page.check(`input[aria-label="Select ${id}"]`);
    // A merge asks for confirmation first.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("[data-testid=bulk] button[value=merge]");
    const notice = page.locator("[data-testid=bulk] .notice").first();
    await notice.waitFor();
    expect(await notice.textContent()).toBe("Merged 2 issues into API-1.");

    // The merged issue's page says where it went, by short id too.
    const merged = await store.db.selectFrom("issues").select("id").where("short_number", "=", 2).executeTakeFirstOrThrow();
    await page.goto(`${server.url}/orgs/shop/issues/${merged.id}`);
    await expect(page.locator("[data-testid=activity]").textContent()).resolves.toContain("merged this issue into API-1");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `merged-issue-${width}`);
    }
    await page.close();
  });
});
