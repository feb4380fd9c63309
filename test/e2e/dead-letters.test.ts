import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { recordDeadLetter } from "../../src/core/deadletters/record";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, errorEnvelope, newEventId, send } from "../support/envelopes";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");

describe.each(DIALECTS)("the dead letters page in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const retriedId = newEventId();
  let ingestUrl = "";

  async function logIn(p: Page, email: string): Promise<void> {
    await signIn(p, server.url, email, /\/orgs\/dl$/);
  }

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    const member = await createUser({ ctx, input: { email: "member@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "dl", name: "Dead Letter Co", owner: "owner@example.com" } });
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: member.id, role: "member", created_at: Date.now() })
      .execute();
    const { project, key } = await createProject({ ctx, input: { org: "dl", slug: "checkout" } });
    const letter = { projectId: project.id, keyId: 0, scrubbing: {} };
    await recordDeadLetter(
      ctx.deadLetters,
      {
        ...letter,
        receivedAt: Date.now() - 7_200_000,
        body: errorEnvelope(retriedId, "retry me"),
        itemTypes: ["event"],
        reason: "write_failed: simulated",
      },
      Date.now() - 3_600_000,
    );
    const secret = errorEnvelope(newEventId(), `card 4111 1111 1111 1111 ${"x".repeat(6000)}`, { auth: "Bearer abcdef0123456789abcdef" });
    await recordDeadLetter(
      ctx.deadLetters,
      {
        ...letter,
        receivedAt: Date.now(),
        body: secret,
        itemTypes: ["event", "attachment"],
        reason: "digest_failed: Maximum call stack size exceeded",
      },
      Date.now(),
    );
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    ingestUrl = `${server.url.replace("localhost", "127.0.0.1")}/api/${project.id}/envelope/?sentry_version=7&sentry_key=${key.public_key}`;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await logIn(page, "owner@example.com");
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("lists dead letters for an owner, linked from the organization page, with dates people read", async () => {
    await page.click("a:text-is('Dead letters')");
    await page.waitForURL(/\/orgs\/dl\/dead-letters$/);
    const letters = page.locator("section.dead-letter");
    expect(await letters.count()).toBe(2);
    const newest = letters.first();
    await expect(newest.textContent()).resolves.toContain("digest_failed: Maximum call stack size exceeded");
    // Dates as every page shows them (app/lib/dates): how long ago, the exact UTC time on hover.
    await expect(newest.textContent()).resolves.toMatch(/Set aside \d+(s|min) ago · received \d+(s|min) ago/);
    const times = newest.locator(".dead-letter-head time");
    expect(await times.count()).toBe(2);
    for (const title of await times.evaluateAll((ts) => ts.map((t) => t.getAttribute("title")))) {
      expect(title).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    }
    // Its body is over 6,000 bytes: the size in the pages' one binary-unit format.
    await expect(newest.textContent()).resolves.toMatch(/ \d+\.\d KiB/);
    const excerpt = (await newest.locator("pre").textContent()) ?? "";
    expect(excerpt).not.toContain("4111 1111 1111 1111");
    expect(excerpt).not.toContain("abcdef0123456789abcdef");
    await newest.locator("summary").click();
    await page.screenshot({ path: join(SHOTS, `dead-letters-${dialect}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `dead-letters-${dialect}-390.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("retries one dead letter, which the digest then stores, and deletes another", async () => {
    await page.goto(`${server.url}/orgs/dl/dead-letters`);
    const letters = page.locator("section.dead-letter");
    // A successful action re-renders the list without the letter: its row going is the answer.
    await letters.last().locator("button:text-is('Retry')").click();
    await waitFor(async () => (await letters.count()) === 1, 10_000, "the retried letter to leave the list");
    await waitFor(
      async () => (await store.db.selectFrom("events").select("id").where("event_id", "=", retriedId).executeTakeFirst()) !== undefined,
      20_000,
      "the retried event to be stored",
    );
    await letters.first().locator("button:text-is('Delete')").click();
    await waitFor(async () => (await letters.count()) === 0, 10_000, "the deleted letter to leave the list");
    await page.locator("text=No dead letters").waitFor();
    expect(await store.db.selectFrom("dead_letters").select("id").execute()).toEqual([]);
  });

  it("keeps storing after the issue's poison requests (items nested 25,000 deep, NUL in text) reach the running server", async () => {
    const deep = `{"x":${"[".repeat(25_000)}${"]".repeat(25_000)}}`;
    const poison = [
      buildEnvelope({}, [{ type: "check_in", payload: deep }]),
      buildEnvelope({}, [{ type: "log", payload: deep, headers: { item_count: 1 } }]),
      buildEnvelope({}, [{ type: "user_report", payload: JSON.stringify({ event_id: newEventId(), name: "n\u0000", comments: "c" }) }]),
    ];
    for (const body of poison)
      expect((await send(ingestUrl, { body, headers: { "content-type": "application/x-sentry-envelope" } })).status).toBe(200);
    const after = newEventId();
    expect(
      (
        await send(ingestUrl, {
          body: errorEnvelope(after, "after the poison"),
          headers: { "content-type": "application/x-sentry-envelope" },
        })
      ).status,
    ).toBe(200);
    await waitFor(
      async () => (await store.db.selectFrom("events").select("id").where("event_id", "=", after).executeTakeFirst()) !== undefined,
      20_000,
      "the event sent after the poison to be stored",
    );
    expect(await store.db.selectFrom("feedback").select("name").where("name", "=", "n").execute()).toHaveLength(1);
  });

  it("gives a member the not-found page for dead letters, and no link to them", async () => {
    const other = await browser.newPage();
    await logIn(other, "member@example.com");
    expect(await other.locator("a:text-is('Dead letters')").count()).toBe(0);
    const response = await other.goto(`${server.url}/orgs/dl/dead-letters`);
    expect(response?.status()).toBe(404);
    await expect(other.locator("h1").textContent()).resolves.toBe("Page not found");
    await other.close();
  });
});
