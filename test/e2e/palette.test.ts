import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import type { User } from "../../src/db/schema";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, newEventId, send } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * The command palette (Ctrl-K, `/`) and the issue stream's keyboard shortcuts, driving real
 * lookups and the real triage action. SCREENSHOTS=dir keeps the palette at 390 and 1280 px.
 */
const SHOTS = process.env.SCREENSHOTS;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe("the command palette and stream shortcuts in Chromium", () => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let user: User;
  const traceId = newEventId();

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    const ctx = testCtx(store);
    user = await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", name: "Shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", name: "API", platform: "node" } });
    await updateFilters({ ctx, input: { projectId: project.id, changes: { localhost: false } } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });

    const url = `${server.url}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
    const now = Date.now() / 1000;
    const tx = {
      event_id: newEventId(),
      type: "transaction",
      transaction: "GET /checkout",
      start_timestamp: now - 2,
      timestamp: now,
      contexts: { trace: { trace_id: traceId, span_id: "0123456789abcdef", op: "http.server" } },
    };
    const items = [{ type: "transaction", payload: JSON.stringify(tx) }];
    // Three issues, last seen one second apart, so the stream lists them newest first.
    for (const [n, name] of ["Checkout FirstError", "Checkout SecondError", "Checkout ThirdError"].entries()) {
      items.push({
        type: "event",
        payload: JSON.stringify({ event_id: newEventId(), message: name, level: "error", platform: "node", timestamp: now - 10 + n }),
      });
    }
    for (const item of items) expect((await send(url, { body: buildEnvelope({}, [item]) })).status).toBe(200);
    await queueDrained(store);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  async function signedIn(width: number, path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await signIn(page, server.url, "dev@example.com", /\/orgs\/[a-z]+$/);
    await page.goto(`${server.url}${path}`);
    // The shortcuts listen once React has hydrated the page.
    await page.waitForLoadState("networkidle");
    return page;
  }
  const issue = (id: number) => store.db.selectFrom("issues").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const palette = (page: Page) => page.locator("dialog[data-testid=palette]");

  it("opens on Ctrl-K and goes to the issue whose short id is typed", async () => {
    const page = await signedIn(1280, "/orgs/shop");
    await page.keyboard.press("Control+k");
    await expect.poll(() => palette(page).isVisible()).toBe(true);
    await page.keyboard.type("API-2");
    await page.locator("[data-testid=palette-results] li", { hasText: "SecondError" }).waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    expect(await page.locator("h1").textContent()).toContain("SecondError");
    await page.close();
  });

  it("opens on Cmd-K too, and Enter pressed before the lookup replies opens the typed id's issue", async () => {
    const page = await signedIn(1280, "/orgs/shop");
    await page.keyboard.press("Meta+k");
    await expect.poll(() => palette(page).isVisible()).toBe(true);
    await page.keyboard.type("api-3");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    expect(await page.locator("h1").textContent()).toContain("ThirdError");
    await page.close();
  });

  it("opens on / and goes to the trace page for a typed trace id", async () => {
    const page = await signedIn(1280, "/orgs/shop/issues");
    await page.keyboard.press("/");
    await expect.poll(() => palette(page).isVisible()).toBe(true);
    await page.keyboard.type(traceId);
    await page.locator("[data-testid=palette-results] li", { hasText: `Trace ${traceId}` }).waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/orgs/shop/traces/${traceId}$`));
    await page.close();
  });

  it("opens from the sidebar's button, and fits 390 and 1280 px without horizontal overflow", async () => {
    for (const width of [390, 1280]) {
      const page = await signedIn(width, "/orgs/shop/issues");
      if (width < 900) await page.click("[data-testid=sidebar-toggle]");
      await page.click("[data-testid=palette-button]");
      await expect.poll(() => palette(page).isVisible()).toBe(true);
      await page.keyboard.type("checkout");
      await page.locator("[data-testid=palette-results] li").first().waitFor();
      await shot(page, `palette-${width}`);
      const box = await palette(page).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.keyboard.press("Escape");
      await expect.poll(() => palette(page).isVisible()).toBe(false);
      await page.close();
    }
  });

  it("fires no shortcut while the user types in the stream's search box", async () => {
    const page = await signedIn(1280, "/orgs/shop/issues");
    await page.click("[data-testid=search]");
    await page.keyboard.type("jjri/");
    expect(await page.inputValue("[data-testid=search]")).toContain("jjri/");
    expect(await page.locator("tr.kbd-selected").count()).toBe(0);
    expect(await palette(page).isVisible()).toBe(false);
    const statuses = await store.db.selectFrom("issues").select("status").execute();
    expect(statuses.map((s) => s.status)).toEqual(["unresolved", "unresolved", "unresolved"]);
    await page.close();
  });

  it("j j r resolves the second issue, e assigns the selected one to me and i ignores it, through the triage action", async () => {
    const page = await signedIn(1280, "/orgs/shop/issues");
    const rows = page.locator("tr[data-issue-id]");
    expect(await rows.count()).toBe(3);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    const second = Number(await rows.nth(1).getAttribute("data-issue-id"));
    await expect.poll(() => page.locator("tr.kbd-selected").getAttribute("data-issue-id")).toBe(String(second));
    await shot(page, "stream-selection-1280");
    await page.keyboard.press("r");
    await expect.poll(async () => (await issue(second)).status).toBe("resolved");
    // The resolved issue leaves the "is:unresolved" stream; the selection rests on the row after it.
    await expect.poll(() => rows.count()).toBe(2);
    const selected = Number(await page.locator("tr.kbd-selected").getAttribute("data-issue-id"));
    await page.keyboard.press("e");
    await expect.poll(async () => (await issue(selected)).assignee_id).toBe(user.id);
    await page.keyboard.press("i");
    await expect.poll(async () => (await issue(selected)).status).toBe("ignored");
    // The activity log is written by the issue-change outbox's consumer, after the state change
    // commits: it catches up within a poll, not within the same request.
    const activity = () => store.db.selectFrom("issue_activity").select(["issue_id", "type"]).execute();
    await expect
      .poll(activity, { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({ issue_id: second, type: "set_resolved" }),
          expect.objectContaining({ issue_id: selected, type: "assigned" }),
          expect.objectContaining({ issue_id: selected, type: "set_ignored" }),
        ]),
      );
    await page.close();
  });

  it("lists the shortcuts on ?, within 390 px", async () => {
    const page = await signedIn(390, "/orgs/shop/issues");
    await page.keyboard.press("?");
    const help = page.locator("dialog[data-testid=shortcut-help]");
    await expect.poll(() => help.isVisible()).toBe(true);
    expect(await help.textContent()).toContain("Assign the selected issue to me");
    await shot(page, "shortcut-help-390");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.close();
  });
});
