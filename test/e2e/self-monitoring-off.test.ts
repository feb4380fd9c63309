import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { launchBrowser } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { openTestStore, testCtx, type TestStore } from "../support/stores";

describe("TELLTALE_SELF_DSN=off", () => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    await createUser({ ctx: testCtx(store), input: { email: "ops@example.com", password: "password-123" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_DEBUG_PAGES: "true" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("starts no SDK in the browser and reports nothing, even for a server error", async () => {
    expect(server.logs()).toContain('selfMonitoring="off"');
    const page = await browser.newPage();
    const envelopes: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/envelope/") || r.url().includes("/tunnel/")) envelopes.push(r.url());
    });
    await page.goto(`${server.url}/login`);
    expect(await page.locator('meta[name="telltale-sentry"]').count()).toBe(0);
    await page.fill("input[name=email]", "ops@example.com");
    await page.fill("input[name=password]", "password-123");
    await page.click("main button[type=submit]");
    await page.waitForURL((url) => url.pathname !== "/login");
    const response = await page.goto(`${server.url}/debug/server-error`);
    expect(response?.status()).toBe(500);
    // Give an SDK, were one running, the time it takes to send (it flushes within a second or two).
    await new Promise((r) => setTimeout(r, 3000));
    expect(envelopes).toEqual([]);
    const queued = await store.queue
      .selectFrom("ingest_queue")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(queued.n), "ingest_queue").toBe(0);
    for (const table of ["events", "spans"] as const) {
      const row = await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(row.n), table).toBe(0);
    }
    await page.close();
  });
});
