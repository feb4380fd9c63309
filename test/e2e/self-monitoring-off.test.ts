import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { launchBrowser } from "../support/browser";
import { errorEnvelope, newEventId } from "../support/envelopes";
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
    // An SDK, were one running, sends as it captures. A sentinel event sent to the internal project
    // after the error, and digested, is the condition to wait on: nothing else may be stored beside it.
    await page.waitForLoadState("networkidle");
    const key = await store.db
      .selectFrom("project_keys")
      .innerJoin("projects", "projects.id", "project_keys.project_id")
      .select(["project_keys.public_key", "projects.id"])
      .where("projects.slug", "=", "telltale")
      .executeTakeFirstOrThrow();
    const sentinel = newEventId();
    const sent = await fetch(`${server.url}/api/${key.id}/envelope/?sentry_key=${key.public_key}`, {
      method: "POST",
      body: new Uint8Array(errorEnvelope(sentinel, "sentinel")),
    });
    expect(sent.status).toBe(200);
    await expect
      .poll(async () => (await store.db.selectFrom("events").select("event_id").execute()).map((e) => e.event_id), { timeout: 30_000 })
      .toContain(sentinel);
    expect(envelopes).toEqual([]);
    expect((await store.db.selectFrom("events").select("event_id").execute()).map((e) => e.event_id)).toEqual([sentinel]);
    expect((await store.db.selectFrom("spans").select("span_id").execute()).length, "spans").toBe(0);
    await page.close();
  });
});
