import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { runNodeClient } from "../support/clients";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");
const OWNER = "olive@example.com";

/**
 * Issue 14 end to end on the built server: @sentry/node raises a new issue, the default rule of a
 * new project emails its owner through a real SMTP server (the sender's loop in the server, not
 * the test, delivers it); the email's link opens the issue in Chromium, and the project's Alerts
 * page lists the rule and the notification and switches the rule off.
 */
describe.each(DIALECTS)("issue alert email from the running server on %s", (dialect) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let publicKey = "";
  let projectId = 0;
  let issueLink = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "node-app", platform: "node" } });
    publicKey = key.public_key;
    projectId = project.id;
    smtp = await startSmtp();
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_SMTP_URL: smtp.url });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await store?.cleanup();
  });

  it("emails the owner about a new issue from @sentry/node, and the link opens it", async () => {
    const dsn = `http://${publicKey}@localhost:${server.port}/${projectId}`;
    const started = Date.now();
    await runNodeClient(dsn, "basic");
    const clientDone = Date.now();
    const mail = await waitFor(async () => smtp.messages.find((m) => m.subject?.includes("SyntaxError")), 20_000, "the alert email");
    const arrived = Date.now();
    console.log(
      `[alerts e2e ${dialect}] @sentry/node start → email in the inbox: ${arrived - started} ms; client exit → inbox: ${arrived - clientDone} ms`,
    );
    expect(mail.subject).toMatch(/^\[node-app\] New issue: SyntaxError: /);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe(OWNER);
    issueLink = mail.text?.match(/http:\/\/localhost:\d+\/orgs\/acme\/issues\/\d+\//)?.[0] ?? "";
    expect(issueLink.startsWith(`${server.url}/orgs/acme/issues/`)).toBe(true);
    expect(mail.text).toMatch(/ {4}at Object\.basic \(\S*node-client\.mjs:\d+:\d+\)/);
    await signIn(page, server.url, OWNER);
    await page.goto(issueLink);
    await expect(page.locator("h1").first().textContent()).resolves.toMatch(/SyntaxError/);
  });

  it("lists the rule and the notification on the project's Alerts page and switches the rule off", async () => {
    const url = `${server.url}/orgs/acme/projects/node-app/alerts`;
    // The project's settings link to it.
    await page.goto(`${server.url}/orgs/acme/projects/node-app/settings`);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `alerts-settings-link-${dialect}-${width}.png`), fullPage: true });
    }
    await page.click("nav.tabs a:text-is('Alerts')");
    await page.waitForURL(url);
    const rules = page.locator("[data-testid=rule]");
    await expect(rules.count()).resolves.toBe(1);
    await expect(rules.first().textContent()).resolves.toMatch(
      /Send a notification for new issues.*A new issue is created.*project's members.*on/,
    );
    const sent = page.locator("[data-testid=notifications] tbody tr", { hasText: "sent" });
    await expect(sent.count()).resolves.toBeGreaterThanOrEqual(3);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `alerts-${dialect}-${width}.png`), fullPage: true });
    }
    await page.click("[data-testid=rule-status-form] button");
    await page.locator("[data-testid=rule-status-form] .notice").waitFor();
    await page.goto(url);
    await expect(page.locator("[data-testid=rule] .badge").first().textContent()).resolves.toBe("off");
    await expect(page.locator("[data-testid=rule-status-form] button").textContent()).resolves.toBe("Switch on");
    await page.screenshot({ path: join(SHOTS, `alerts-off-${dialect}-1280.png`), fullPage: true });
  });
});
