import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { createToken } from "../../src/core/tokens/tokens";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, eventItem, newEventId, send } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = "/tmp/shots-metric";

/**
 * Issue 14, metric alerts end to end: errors through the ingest endpoint, a rule created through
 * the web API in Sentry's shape, the running server's alert loop evaluating it and emailing a real
 * SMTP server; then the organization's Metric alerts page in headless Chromium (its state and
 * evaluations, creating and editing a rule through the form; read-only for a member) at 390 and
 * 1280 px. Both databases.
 */
describe.each(DIALECTS)("the metric alerts page in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let smtp: TestSmtp;
  let browser: Browser;
  let page: Page;
  let token = "";
  let ruleId = "";
  const owner = "owner@example.com";

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    smtp = await startSmtp();
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: owner, password: "password-123" } });
    const member = await createUser({ ctx, input: { email: "member@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "shop", name: "Shop", owner } });
    await ctx.directory.addMember(org.id, member.id, "member", [], Date.now());
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "checkout", name: "Checkout" } });
    await createProject({ ctx, input: { org: "shop", slug: "web", name: "Web" } });
    await updateFilters({ ctx, input: { projectId: project.id, changes: { localhost: false } } });
    token = (await createToken({ ctx, input: { user: owner } })).token;
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_SMTP_URL: smtp.url });
    const url = `${server.url}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
    // Two minutes old, so that their minute is over when the rule is first evaluated (a window is of complete minutes).
    const at = Date.now() / 1000 - 120;
    for (let i = 0; i < 3; i++) {
      const id = newEventId();
      const body = buildEnvelope({ event_id: id, sent_at: new Date().toISOString() }, [
        eventItem(id, `payment declined ${i}`, { timestamp: at }),
      ]);
      const answer = await send(url, { body });
      expect(answer.status).toBe(200);
    }
    await queueDrained(store);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, server.url, owner, /\/orgs\/shop$/);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await store?.cleanup();
  });

  it("evaluates a rule created through the API in Sentry's shape and emails its critical state", async () => {
    const teams = (await (
      await fetch(`${server.url}/api/0/organizations/shop/teams/`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { id: string }[];
    const started = Date.now();
    const created = await fetch(`${server.url}/api/0/organizations/shop/alert-rules/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "Payments failing",
        aggregate: "count()",
        dataset: "events",
        query: "event.type:error level:error",
        timeWindow: 10,
        projects: ["checkout"],
        thresholdType: 0,
        resolveThreshold: null,
        triggers: [
          { label: "critical", alertThreshold: 2, actions: [{ type: "email", targetType: "team", targetIdentifier: teams[0]!.id }] },
        ],
      }),
    });
    expect(created.status).toBe(201);
    ruleId = ((await created.json()) as { id: string }).id;
    // The project's default issue rule emails its new issues too; the metric alert's email is the one about the rule.
    const mail = await waitFor(
      async () => smtp.messages.find((m) => m.subject === "[shop] Critical: Payments failing"),
      60_000,
      "the metric alert's critical email",
    );
    const ms = Date.now() - started;
    expect(mail.to && [mail.to].flat().flatMap((a) => a.value.map((v) => v.address))).toEqual([owner]);
    expect(mail.text).toContain("3 errors in the last 10 minutes (over 2).");
    expect(mail.text).toContain(`${server.url}/orgs/shop/metric-alerts?rule=${ruleId}`);
    console.log(`[metric alerts ${dialect}] rule created through the API to critical email in the SMTP inbox: ${ms} ms`);
  });

  it("shows each rule's state and latest evaluations, at 390 and 1280 px", async () => {
    await page.goto(`${server.url}/orgs/shop/metric-alerts?rule=${ruleId}`);
    const rule = page.locator("[data-testid=metric-rule]", { hasText: "Payments failing" });
    await expect(rule.locator("[data-testid=metric-state]").textContent()).resolves.toBe("Critical");
    await expect(rule.textContent()).resolves.toContain("3 errors in the last 10 minutes");
    await rule.locator("summary").click();
    await expect(rule.locator("[data-testid=metric-evaluations] tbody tr").first().textContent()).resolves.toMatch(
      /3Critical · became critical/,
    );
    expect(await page.locator("[data-testid=sections] a[aria-current=page]").textContent()).toBe("Metric alerts");
    await page.screenshot({ path: `${SHOTS}/metric-alerts-${dialect}-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/metric-alerts-${dialect}-390.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("creates a rule through the form, refuses a bad one with its reason, and edits it", async () => {
    await page.goto(`${server.url}/orgs/shop/metric-alerts`);
    const form = page.locator("[data-testid=metric-rule-form]");
    await form.locator("input[name=name]").fill("Users affected on web");
    await form.locator("select[name=aggregate]").selectOption("count_unique(user)");
    await form.locator("input[name=projects][value=web]").check();
    await form.locator("input[name=query]").fill("is:unresolved");
    await form.locator("input[name=critical]").fill("50");
    await form.locator("button[type=submit]").click();
    await expect(form.locator("[role=alert]").textContent()).resolves.toContain("a metric alert's query takes level:");
    await expect(form.locator("input[name=name]").inputValue()).resolves.toBe("Users affected on web");
    await form.locator("input[name=query]").fill("level:fatal");
    await form.locator("input[name=projects][value=web]").check();
    await form.locator("select[name=aggregate]").selectOption("count_unique(user)");
    await form.locator("button[type=submit]").click();
    await form.locator("[role=status]").waitFor();
    const created = page.locator("[data-testid=metric-rule]", { hasText: "Users affected on web" });
    await expect(created.textContent()).resolves.toContain("Users affected over the last 5 minutes");
    await form.screenshot({ path: `${SHOTS}/metric-alerts-form-${dialect}-1280.png` });
    await created.locator("a:text-is('Edit')").click();
    await page.waitForURL(/\?rule=\d+#rule-form$/);
    await expect(page.locator("#rule-form h2").textContent()).resolves.toBe("Edit “Users affected on web”");
    await form.locator("input[name=warning]").fill("20");
    await form.locator("button[type=submit]").click();
    await form.locator("[role=status]").waitFor();
    await expect(created.textContent()).resolves.toContain("Critical above 50 · Warning above 20");
    const stored = await store.db.selectFrom("metric_alert_rules").select(["name", "aggregate", "query"]).orderBy("id").execute();
    expect(stored).toEqual([
      { name: "Payments failing", aggregate: "count()", query: "event.type:error level:error" },
      { name: "Users affected on web", aggregate: "count_unique(user)", query: "level:fatal" },
    ]);
  });

  it("shows a member the rules without the form", async () => {
    const other = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(other, server.url, "member@example.com", /\/orgs\/shop$/);
    await other.goto(`${server.url}/orgs/shop/metric-alerts`);
    expect(await other.locator("[data-testid=metric-rule]").count()).toBe(2);
    expect(await other.locator("[data-testid=metric-rule-form]").count()).toBe(0);
    await other.screenshot({ path: `${SHOTS}/metric-alerts-member-${dialect}-390.png`, fullPage: true });
    await other.close();
  });
});
