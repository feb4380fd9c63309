import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { changeIssues } from "../../src/core/issues/triage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { User } from "../../src/db/schema";
import { launchBrowser, signIn } from "../support/browser";
import { runNodeClient } from "../support/clients";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = process.env.SHOTS_DIR ?? join(import.meta.dirname, "..", "..", "test-results");
const OWNER = "olive@example.com";
const MEMBER = "mia@example.com";

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

/**
 * Issue 14, item 5, on the built server: the account page's Notifications say where email goes
 * or why none is sent, send a test email through a real SMTP server, and keep a person's
 * choices; with SMTP set and TELLTALE_URL on localhost, the account page, the organization
 * settings and the Alerts page warn that links in emails point at localhost; an assignment made
 * in the database reaches the assignee through the server's sender.
 */
describe.each(DIALECTS)("notification preferences in the running server on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let smtp: TestSmtp;
  let server: TestServer | null = null;
  let browser: Browser;
  let page: Page;
  /** A page in a context of its own: the servers share the host, and cookies do not tell ports apart. */
  const fresh = async () => {
    await page?.context().close();
    return browser.newPage({ viewport: { width: 1280, height: 900 } });
  };
  let publicKey = "";
  let projectId = 0;
  let olive: User;
  let mia: User;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    olive = await createUser({ ctx, input: { email: OWNER, password: "password-123", name: "Olive" } });
    mia = await createUser({ ctx, input: { email: MEMBER, password: "password-123", name: "Mia" } });
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: OWNER } });
    const team = (await ctx.directory.teams(org.id)).find((t) => t.team.isDefault)!.team;
    await ctx.directory.addMember(org.id, mia.id, "member", [team.id], Date.now());
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "node-app", platform: "node" } });
    publicKey = key.public_key;
    projectId = project.id;
    smtp = await startSmtp();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    await store?.cleanup();
  });

  it("says where notifications would go and why they are not sent without SMTP", async () => {
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    page = await fresh();
    await signIn(page, server.url, MEMBER);
    await page.goto(`${server.url}/account`);
    const note = page.locator("[data-testid=no-smtp]");
    await expect(note.textContent()).resolves.toMatch(/No SMTP server is configured \(TELLTALE_SMTP_URL\).*would go to mia@example\.com/);
    await expect(page.locator("[data-testid=localhost-links]").count()).resolves.toBe(0);
    await page.click("[data-testid=test-email-form] button");
    await expect(page.locator("[data-testid=test-email-form] .error").textContent()).resolves.toBe(
      "Not sent to mia@example.com: no SMTP server is configured (TELLTALE_SMTP_URL).",
    );
    await page.locator("#notifications").scrollIntoViewIfNeeded();
    await shoot(page, `prefs-account-nosmtp-${dialect}`);
    await server.stop();
    server = null;
  }, 180_000);

  it("sends a test email, keeps the choices and warns that links point at localhost", async () => {
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off", TELLTALE_SMTP_URL: smtp.url });
    page = await fresh();
    await signIn(page, server.url, MEMBER);
    await page.goto(`${server.url}/account`);
    await expect(page.locator("[data-testid=localhost-links]").textContent()).resolves.toMatch(
      new RegExp(`Links in emails point at ${server.url}.*TELLTALE_URL`),
    );
    await page.click("[data-testid=test-email-form] button");
    await expect(page.locator("[data-testid=test-email-form] .notice").textContent()).resolves.toMatch(
      /^Sent a test email to mia@example\.com/,
    );
    const mail = await smtp.nextTo(MEMBER);
    expect(mail.subject).toBe("Telltale test email");
    expect(mail.text).toContain(`${server.url}/account#notifications`);

    const form = page.locator("[data-testid=notification-choices]");
    await form.locator("input[name=comments]").uncheck();
    await form.locator("button[type=submit]").click();
    await expect(form.locator(".notice").textContent()).resolves.toBe("Saved which emails you get.");
    const projects = page.locator("[data-testid=project-alerts-form]");
    await projects.locator("select[name=project]").selectOption({ label: "acme / node-app" });
    await projects.locator("select[name=issueAlerts]").selectOption("off");
    await projects.locator("button[type=submit]").click();
    await expect(projects.locator(".notice").textContent()).resolves.toBe("Issue alerts for acme/node-app: off.");
    await page.goto(`${server.url}/account`);
    await expect(form.locator("input[name=comments]").isChecked()).resolves.toBe(false);
    await expect(form.locator("input[name=assigned]").isChecked()).resolves.toBe(true);
    await expect(page.locator("[data-testid=project-alerts] tbody tr").textContent()).resolves.toMatch(/acme \/ node-app.*off/);
    expect(await ctx.userNotifications.preferences(mia.id)).toEqual({
      choices: { issueAlerts: true, assigned: true, comments: false, resolutions: true },
      projects: [{ projectId, issueAlerts: false }],
    });
    await page.locator("#notifications").scrollIntoViewIfNeeded();
    await shoot(page, `prefs-account-${dialect}`);
  }, 180_000);

  it("warns on the organization settings and the Alerts page too", async () => {
    page = await fresh();
    await signIn(page, server!.url, OWNER);
    await page.goto(`${server!.url}/orgs/acme/settings`);
    await page.locator("[data-testid=localhost-links]").waitFor();
    await shoot(page, `prefs-org-settings-${dialect}`);
    await page.goto(`${server!.url}/orgs/acme/projects/node-app/alerts`);
    await page.locator("[data-testid=localhost-links]").waitFor();
    await shoot(page, `prefs-alerts-${dialect}`);
  }, 180_000);

  it("delivers an assignment from the server's sender, and no issue alert to who switched them off for the project", async () => {
    await runNodeClient(`http://${publicKey}@localhost:${server!.port}/${projectId}`, "basic");
    const alert = await waitFor(async () => smtp.messages.find((m) => m.subject?.includes("New issue: SyntaxError")), 20_000, "the alert");
    const issue = await store.db.selectFrom("issues").selectAll().where("title", "like", "SyntaxError%").executeTakeFirstOrThrow();
    await changeIssues({
      ctx,
      input: { projectIds: [projectId], issueIds: [issue.id], user: olive, change: { action: "assign", assigneeId: mia.id } },
    });
    const mail = await smtp.nextTo(MEMBER, 1);
    expect(mail.subject).toBe(`[node-app] Assigned to you: ${issue.title}`);
    expect(mail.text).toContain(`Olive assigned NODE-APP-`);
    // Mia switched issue alerts off for node-app: the new-issue alert went to Olive alone.
    expect(alert.to && !Array.isArray(alert.to) ? alert.to.text : "").toBe(OWNER);
    expect(smtp.messages.filter((m) => m.subject?.includes("New issue: SyntaxError")).length).toBe(1);
  }, 180_000);
});
