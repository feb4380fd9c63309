import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = process.env.SCREENSHOTS;

/** Screenshots at a phone's and a desktop's width when SCREENSHOTS names a folder; returns the overflow at 390 px. */
async function shotsAndOverflow(page: Page, name: string, between?: () => Promise<void>): Promise<number> {
  let overflow = 0;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await between?.();
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
    }
    if (width === 390) overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  return overflow;
}

/**
 * Suggestions are fetched as the user types, so the list shows the previous answer for a moment:
 * wait until it holds exactly `expected`, and say what it held if it never does.
 */
async function optionsBecome(list: Locator, expected: string[]): Promise<void> {
  let last: string[] = [];
  try {
    await waitFor(
      async () => {
        last = await list.locator("[role=option]").allTextContents();
        return JSON.stringify(last) === JSON.stringify(expected);
      },
      5_000,
      `suggestions ${JSON.stringify(expected)}`,
    );
  } catch {
    expect(last).toEqual(expected);
  }
}

/** Issue 10, item 4: the frequency chart, Markdown comments, and search explained and suggested. */
describe.each(DIALECTS)("issue page extras in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let issueUrl = "";
  let streamUrl = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", platform: "node" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    const ingest = `${server.url.replace("localhost", "127.0.0.1")}/api/${project.id}/envelope/?sentry_version=7&sentry_key=${key.public_key}`;
    const reply = await fetch(ingest, {
      method: "POST",
      body: new Uint8Array(errorEnvelope(newEventId(), "Payment failed")),
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status).toBe(200);
    await queueDrained(store);
    const issue = await store.db.selectFrom("issues").select("id").executeTakeFirstOrThrow();
    issueUrl = `${server.url}/orgs/shop/issues/${issue.id}`;
    streamUrl = `${server.url}/orgs/shop/issues`;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("draws 24 hourly bars, and 30 daily bars after the 30 days link", async () => {
    await page.goto(issueUrl);
    const chart = page.locator("[data-testid=frequency-chart]");
    expect(await chart.getAttribute("data-range")).toBe("24h");
    expect(await chart.locator("[data-testid=frequency-bar]").count()).toBe(24);
    expect(await chart.locator("title").first().textContent()).toMatch(/^1 events? in the last 24 hours/);
    await page.click("[data-testid=freq-30d]");
    await page.waitForURL(/freq=30d/);
    expect(await page.locator("[data-testid=frequency-chart]").getAttribute("data-range")).toBe("30d");
    expect(await page.locator("[data-testid=frequency-bar]").count()).toBe(30);
    expect(await shotsAndOverflow(page, `issue-30d-${dialect}`)).toBeLessThanOrEqual(0);
  });

  it("renders a Markdown comment with bold text and no javascript: link", async () => {
    await page.goto(issueUrl);
    await page.fill(
      "[data-testid=comment-form] textarea[name=text]",
      "This is **bold** and [click](javascript:alert(1)) <img src=x onerror=alert(2)>",
    );
    await page.locator("[data-testid=comment-form] button[value=comment]").click();
    const body = page.locator("[data-testid=comment-body]").first();
    await waitFor(async () => (await body.count()) > 0, 10_000, "the comment");
    expect(await body.locator("strong").textContent()).toBe("bold");
    expect(await page.locator('[data-testid=activity] a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator("[data-testid=activity] img").count()).toBe(0);
    expect(await body.textContent()).toContain("<img src=x");
    expect(await shotsAndOverflow(page, `issue-extras-${dialect}`)).toBeLessThanOrEqual(0);
  });

  it("offers level: for lev, then error after choosing it, by keyboard and by mouse", async () => {
    await page.goto(streamUrl);
    const search = page.locator("[data-testid=search]");
    await search.fill("");
    await search.pressSequentially("lev");
    const list = page.locator("[data-testid=search-suggestions]");
    await waitFor(async () => (await list.count()) > 0, 5_000, "the suggestion list");
    await optionsBecome(list, ["level:"]);
    await search.press("ArrowDown");
    await search.press("Enter");
    expect(await search.inputValue()).toBe("level:");
    expect(page.url()).not.toContain("query=level");
    await search.pressSequentially("er");
    await optionsBecome(list, ["error"]);
    await list.locator("[role=option]", { hasText: "error" }).click();
    expect(await search.inputValue()).toBe("level:error ");
    await search.pressSequentially("is:unr");
    const overflow = await shotsAndOverflow(page, `stream-suggestions-${dialect}`, async () => {
      await search.focus();
      await search.press("End");
      await search.press("Backspace");
      await search.pressSequentially("r");
    });
    await optionsBecome(list, ["unresolved"]);
    expect(overflow).toBeLessThanOrEqual(0);
    if (SHOTS) {
      // The list and the chart use theme tokens only; a dark picture shows they follow.
      await page.emulateMedia({ colorScheme: "dark" });
      await search.focus();
      await search.press("Backspace");
      await search.pressSequentially("r");
      await page.screenshot({ path: join(SHOTS, `stream-suggestions-dark-${dialect}-1280.png`) });
      await page.goto(`${issueUrl}?freq=30d`);
      await page.screenshot({ path: join(SHOTS, `issue-dark-${dialect}-1280.png`) });
      await page.emulateMedia({ colorScheme: "light" });
    }
  });

  it("explains an invalid query and marks where it goes wrong", async () => {
    await page.goto(`${streamUrl}?query=${encodeURIComponent("is:unresolved level:loud")}`);
    const error = page.locator("[data-testid=query-error]");
    expect(await error.textContent()).toMatch(/^Invalid search: .*level:loud/);
    expect(await page.locator("[data-testid=query-error-mark]").textContent()).toBe("l");
    expect(await shotsAndOverflow(page, `stream-invalid-${dialect}`)).toBeLessThanOrEqual(0);
  });
});
