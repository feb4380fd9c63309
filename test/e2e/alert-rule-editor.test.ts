import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { buildEnvelope, eventItem, newEventId, send } from "../support/envelopes";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = "/tmp/shots-freq";
const OWNER = "olive@example.com";
const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
const SLACK_URL = "https://hooks.slack.com/services/T0/B0/x";

/**
 * Issue 14: the rule editor on a project's Alerts page in headless Chromium, on the built server.
 * A project without rules is offered the default rule; a rule is created with a frequency
 * condition and a tag filter (a mistake first, shown beside its field), stored in Sentry's shape,
 * fired by events sent to the server, edited (its email swapped for a Slack post) and deleted.
 */
describe.each(DIALECTS)("the alert rule editor on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let webId = 0;
  let publicKey = "";

  const alerts = (project: string) => `${server.url}/orgs/acme/projects/${project}/alerts`;
  const shoot = async (name: string) => {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${dialect}-${width}.png`, fullPage: true });
    }
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    const web = await createProject({ ctx, input: { org: "acme", slug: "web", platform: "javascript" } });
    webId = web.project.id;
    publicKey = web.key.public_key;
    // A project from before default rules (or whose rule was deleted).
    const old = (await createProject({ ctx, input: { org: "acme", slug: "old" } })).project.id;
    for (const r of await ctx.alerts.rules(old)) await ctx.alerts.deleteRule(old, r.id);
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("dialog", (d) => void d.accept());
    await signIn(page, server.url, OWNER);
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("offers a project without rules the default rule", async () => {
    await page.goto(alerts("old"));
    await page.locator("[data-testid=no-rules]").waitFor();
    await shoot("alerts-offer");
    await page.click("[data-testid=default-rule-offer] button");
    await page.locator("[data-testid=default-rule-offer] .notice, [data-testid=rule]").first().waitFor();
    await page.goto(alerts("old"));
    await expect(page.locator("[data-testid=rule]").allTextContents()).resolves.toEqual([
      expect.stringMatching(/Send a notification for new issues.*A new issue is created/),
    ]);
    await expect(page.locator("[data-testid=default-rule-offer]").count()).resolves.toBe(0);
  });

  it("creates a rule, showing a mistake beside its field first, and stores it in Sentry's shape", async () => {
    await page.goto(alerts("web"));
    await page.click("[data-testid=new-rule] > summary");
    const form = page.locator("[data-testid=new-rule] [data-testid=rule-editor]");
    await form.locator("input[name=name]").fill("Busy for Acme");
    await form.locator("input[name='c.events']").check();
    await form.locator("input[name='c.events.value']").fill("lots");
    await form.locator("select[name='c.events.interval']").selectOption("1h");
    await form.locator("input[name='f.tag']").check();
    await form.locator("input[name='f.tag.key']").fill("customer");
    await form.locator("input[name='f.tag.value']").fill("acme");
    await form.locator("input[name=frequency]").fill("5");
    await form.locator("button[type=submit]").click();
    const error = form.locator("[data-testid='error-c.events.value']");
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe("value is a whole number");
    // What was typed stays.
    await expect(form.locator("input[name='f.tag.key']").inputValue()).resolves.toBe("customer");
    await shoot("alerts-editor-error");
    await form.locator("input[name='c.events.value']").fill("2");
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    await expect(form.locator(".notice").textContent()).resolves.toBe("Created “Busy for Acme”.");

    await page.goto(alerts("web"));
    const rule = page.locator("[data-testid=rule]", { hasText: "Busy for Acme" });
    await expect(rule.textContent()).resolves.toMatch(
      /The issue is seen more than 2 times in one hour.*The event's tag customer equals acme.*the project's members/,
    );
    const stored = (await ctx.alerts.rules(webId)).find((r) => r.name === "Busy for Acme");
    expect(stored?.conditions).toEqual([{ id: EVENT_FREQUENCY, value: 2, interval: "1h", comparisonType: "count" }]);
    expect(stored?.filters).toEqual([
      { id: "sentry.rules.filters.tagged_event.TaggedEventFilter", key: "customer", match: "eq", value: "acme" },
    ]);
    expect(stored?.frequency).toBe(5);
    await shoot("alerts-rules");
  });

  it("fires the new rule on the third event for Acme, in the running server", async () => {
    const sendOne = async () => {
      const id = newEventId();
      const res = await send(`${server.url}/api/${webId}/envelope/?sentry_key=${publicKey}`, {
        headers: { "content-type": "application/x-sentry-envelope" },
        body: buildEnvelope({ event_id: id }, [eventItem(id, "Basket total is negative", { tags: { customer: "acme" } })]),
      });
      expect(res.status).toBe(200);
    };
    const rule = (await ctx.alerts.rules(webId)).find((r) => r.name === "Busy for Acme")!;
    // The first event creates the issue (the default rule's "New issue" notification says it was
    // digested) before the others arrive: three events digested in one batch would create the
    // issue with a count of three, and the rule would fire on the creation instead.
    await sendOne();
    await waitFor(
      async () => (await ctx.alerts.notifications({ projectId: webId })).some((n) => n.changeKind === "created"),
      20_000,
      "the new issue's notification",
    );
    expect((await ctx.alerts.notifications({ projectId: webId })).some((n) => n.ruleId === rule.id)).toBe(false);
    await sendOne();
    await sendOne();
    await waitFor(
      async () => (await ctx.alerts.notifications({ projectId: webId })).some((n) => n.ruleId === rule.id),
      20_000,
      "the rule to fire",
    );
    await page.goto(alerts("web"));
    await expect(page.locator("[data-testid=notifications]").textContent()).resolves.toMatch(/Frequency.*Basket total is negative/);
  });

  it("edits the rule and deletes it", async () => {
    const rule = page.locator("[data-testid=rule]", { hasText: "Busy for Acme" });
    await rule.locator("[data-testid=edit-rule] > summary").click();
    const form = rule.locator("[data-testid=rule-editor]");
    await expect(form.locator("input[name='c.events.value']").inputValue()).resolves.toBe("2");
    await form.locator("input[name=name]").fill("Busy for Acme, hourly");
    await form.locator("input[name=frequency]").fill("60");
    await form.locator("input[name='f.latest_release']").check();
    // Slack instead of email: a URL that is not one is shown beside its field first.
    await form.locator("input[name='a.email']").uncheck();
    await form.locator("input[name='a.slack']").check();
    await form.locator("input[name='a.slack.webhookUrl']").fill("hooks.slack.com/services/T0/B0/x");
    await form.locator("button[type=submit]").click();
    const error = form.locator("[data-testid='error-a.slack.webhookUrl']");
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe("webhookUrl is an http:// or https:// URL");
    await form.locator("input[name='a.slack.webhookUrl']").fill(SLACK_URL);
    await shoot("alerts-editor-edit");
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    await page.goto(alerts("web"));
    const edited = page.locator("[data-testid=rule]", { hasText: "Busy for Acme, hourly" });
    await expect(edited.textContent()).resolves.toMatch(/The event is from the latest release.*once per issue every 60 minutes/);
    // The page shows the URL's origin only (the path is Slack's secret); the rule has the whole URL.
    await expect(edited.textContent()).resolves.toContain("Post to Slack through the incoming webhook https://hooks.slack.com");
    await expect(edited.textContent()).resolves.not.toContain("T0/B0");
    const stored = (await ctx.alerts.rules(webId)).find((r) => r.name === "Busy for Acme, hourly");
    expect(stored?.actions).toEqual([{ id: "telltale.actions.SlackWebhookAction", webhookUrl: SLACK_URL }]);
    // Opened again, the form holds the Slack post and no email.
    await edited.locator("[data-testid=edit-rule] > summary").click();
    const again = edited.locator("[data-testid=rule-editor]");
    await expect(again.locator("input[name='a.slack']").isChecked()).resolves.toBe(true);
    await expect(again.locator("input[name='a.email']").isChecked()).resolves.toBe(false);
    await expect(again.locator("input[name='a.slack.webhookUrl']").inputValue()).resolves.toBe(SLACK_URL);
    await edited.locator("[data-testid=delete-rule-form] button").click();
    await waitFor(async () => (await ctx.alerts.rules(webId)).length === 1, 10_000, "the rule to be deleted");
    await page.goto(alerts("web"));
    await expect(page.locator("[data-testid=rule]").count()).resolves.toBe(1);
    expect((await ctx.alerts.rules(webId)).map((r) => r.name)).toEqual(["Send a notification for new issues"]);
  });
});
