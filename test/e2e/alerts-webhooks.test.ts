import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createRule } from "../../src/core/alerts/manage-rules";
import { FIRST_SEEN, SLACK_ACTION, WEBHOOK_ACTION } from "../../src/core/alerts/rule-schema";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { runNodeClient } from "../support/clients";
import { startHookReceiver, type HookReceiver } from "../support/hook-receiver";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = "/tmp/shots-hooks";
const OWNER = "olive@example.com";

/**
 * Issue 14 end to end on the built server: a rule posts a new issue from @sentry/node to a local
 * webhook (answering 500 at first) and to a Slack-format receiver, delivered by the server's own
 * sender loop; the Alerts page shows each notification's channel, target and attempts, and
 * "Test this rule" fires the rule once more. TELLTALE_ALERTS_ALLOW_PRIVATE_URLS lets it reach loopback.
 */
describe.each(DIALECTS)("alert webhooks from the running server on %s", (dialect) => {
  let store: TestStore;
  let hooks: HookReceiver;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let dsn = "";

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    hooks = await startHookReceiver();
    hooks.answer("/hook", 500);
    const ctx = testCtx(store);
    const owner = await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "node-app", platform: "node" } });
    await createRule({
      ctx,
      input: {
        project,
        userId: owner.id,
        body: {
          name: "New issues to our hooks",
          conditions: [{ id: FIRST_SEEN }],
          actions: [
            { id: WEBHOOK_ACTION, url: `${hooks.base}/hook` },
            { id: SLACK_ACTION, webhookUrl: `${hooks.base}/slack` },
          ],
        },
      },
    });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_ALERTS_ALLOW_PRIVATE_URLS: "1" });
    dsn = `http://${key.public_key}@localhost:${server.port}/${project.id}`;
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await hooks?.close();
    await store?.cleanup();
  });

  it("posts a new issue from @sentry/node to the webhook and Slack, and shows the attempts on the Alerts page", async () => {
    const started = Date.now();
    await runNodeClient(dsn, "basic");
    await waitFor(async () => hooks.to("/slack").find((h) => h.body.includes("SyntaxError")), 20_000, "the Slack message");
    console.log(`[alert webhooks e2e ${dialect}] @sentry/node start → Slack message at the receiver: ${Date.now() - started} ms`);
    // Three issues (the client's error, message and large event): three webhooks, the first answered 500.
    await waitFor(async () => hooks.to("/hook").length >= 3, 20_000, "the webhooks");
    await signIn(page, server.url, OWNER);
    await page.goto(`${server.url}/orgs/acme/projects/node-app/alerts`);
    const rule = page.locator("[data-testid=rule]", { hasText: "New issues to our hooks" });
    await expect(rule.textContent()).resolves.toContain(`Send a signed webhook to ${hooks.base}/…`);
    await rule.locator("[data-testid=rule-secret] summary").click();
    await expect(rule.locator("[data-testid=rule-secret] code").textContent()).resolves.toMatch(/^[0-9a-f]{64}$/);
    const failed = page.locator("[data-testid=notifications] tbody tr", { hasText: "Webhook" }).filter({ hasText: "answered 500" });
    await expect(failed.count()).resolves.toBe(1);
    await failed.locator("[data-testid=attempts] summary").click();
    await expect(failed.locator("[data-testid=attempts] li").first().textContent()).resolves.toMatch(/failed · HTTP 500 · \d+\.\d s/);
    await expect(failed.locator(".attempt-answer").first().textContent()).resolves.toBe("boom 500");
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/alerts-history-${dialect}-${width}.png`, fullPage: true });
    }
  });

  it("tests the rule from the page: one more webhook and Slack message", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const before = hooks.to("/slack").length;
    const form = page.locator("[data-testid=rule]", { hasText: "New issues to our hooks" }).locator("[data-testid=test-rule-form]");
    await form.locator("button").click();
    await expect(form.locator(".notice").textContent()).resolves.toMatch(/Queued 2 test notifications/);
    await waitFor(async () => hooks.to("/slack").length > before, 15_000, "the test message");
    expect(hooks.to("/slack").at(-1)!.body).toContain("Test of an alert rule in node-app");
    await page.goto(`${server.url}/orgs/acme/projects/node-app/alerts`);
    await expect(page.locator("[data-testid=notifications] tbody tr", { hasText: "Test of the rule" }).count()).resolves.toBe(2);
    await page.screenshot({ path: `${SHOTS}/alerts-tested-${dialect}-1280.png`, fullPage: true });
  });
});
