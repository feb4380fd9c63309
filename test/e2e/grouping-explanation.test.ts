import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GROUPING_CONFIG } from "../../src/core/grouping/index";
import { createUser } from "../../src/core/accounts/create-user";
import { saveFingerprintRules } from "../../src/core/issues/grouping-rules";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Issue 11: the issue page's "why events group here" is computed with the project's fingerprint
 * rules, so an issue grouped by a rule shows the hash it really has and names the rule; after the
 * rules change, the page says the event would now group elsewhere instead of showing a foreign hash.
 */
describe.each(DIALECTS)("the grouping explanation of a rule-grouped issue in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let projectId = 0;
  let issueUrl = "";
  let hashes: string[] = [];

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", platform: "node" } });
    projectId = project.id;
    await saveFingerprintRules({ ctx, input: { projectId, text: 'message:"Payment*" -> payments' } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    const ingest = `${server.url.replace("localhost", "127.0.0.1")}/api/${project.id}/envelope/?sentry_version=7&sentry_key=${key.public_key}`;
    for (const message of ["Payment failed for order 17", "Payment declined by the bank"]) {
      const reply = await fetch(ingest, { method: "POST", body: new Uint8Array(errorEnvelope(newEventId(), message)) });
      expect(reply.status).toBe(200);
    }
    await queueDrained(store);
    const issues = await store.db.selectFrom("issues").select("id").where("project_id", "=", projectId).execute();
    // The rule put both messages into one issue.
    expect(issues).toHaveLength(1);
    const issueId = issues[0]!.id;
    hashes = (await store.db.selectFrom("issue_hashes").select("hash").where("issue_id", "=", issueId).execute()).map((r) => r.hash);
    issueUrl = `${server.url}/orgs/shop/issues/${issueId}`;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("shows the issue's own hash and names the rule", async () => {
    await page.goto(issueUrl);
    await page.click("[data-testid=grouping] summary");
    const shown = (await page.locator("[data-testid=grouping-hash]").textContent()) ?? "";
    expect(hashes).toContain(shown);
    expect(await page.locator("[data-testid=grouping]").textContent()).toContain("rule on line 1");
    expect(await page.locator("[data-testid=grouping-stale]").count()).toBe(0);
  });

  it("says the event would now group elsewhere once the rule is gone", async () => {
    await saveFingerprintRules({ ctx: testCtx(store), input: { projectId, text: "" } });
    await page.goto(issueUrl);
    await page.click("[data-testid=grouping] summary");
    const shown = (await page.locator("[data-testid=grouping-hash]").textContent()) ?? "";
    expect(hashes).not.toContain(shown);
    expect(await page.locator("[data-testid=grouping-stale]").textContent()).toContain(hashes[0]!);
  });

  it("names the project's grouping version in settings, fitting 390 px", async () => {
    await page.goto(`${server.url}/orgs/shop/projects/api/settings/grouping`);
    expect(await page.locator("[data-testid=grouping-version]").textContent()).toContain(GROUPING_CONFIG);
    expect(await page.locator("[data-testid=grouping-upgrade-form]").count()).toBe(0);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      if (process.env.SCREENSHOTS) {
        mkdirSync(process.env.SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(process.env.SCREENSHOTS, `settings-grouping-${dialect}-${width}.png`), fullPage: true });
      }
      if (width === 390) {
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(
          0,
        );
      }
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(issueUrl);
    await page.click("[data-testid=grouping] summary");
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: join(process.env.SCREENSHOTS, `issue-grouping-${dialect}.png`), fullPage: true });
  });
});
