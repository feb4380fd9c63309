import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { projectOptions } from "../../src/core/projects/options";
import { m0010 } from "../../src/db/migrations/0010_localhost_filter_default";
import { launchBrowser, signIn } from "../support/browser";
import { runNodeClient } from "../support/clients";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

describe.each(DIALECTS)("project ingest settings and stats in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let projectId = 0;
  const base = "/orgs/web/projects/api";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "web", owner: "owner@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "web", slug: "api", platform: "node" } })).project.id;
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "owner@example.com", /\/orgs\/web$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("charts what a real SDK sent on the Stats page", async () => {
    const key = await store.db
      .selectFrom("project_keys")
      .select("public_key")
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    await runNodeClient(buildDsn(server.url, key.public_key, projectId), "basic");
    await queueDrained(store);
    await page.goto(`${server.url}${base}/stats`);
    const chart = page.locator("[data-testid=outcome-chart]");
    await chart.waitFor();
    expect(await chart.locator("rect").count()).toBeGreaterThan(0);
    const errorRow = page.locator("[data-testid=outcome-totals] tr", { hasText: "error" }).filter({ hasText: "accepted" });
    await expect(errorRow.locator("td").last().textContent()).resolves.toBe("3");
    // The category switcher narrows the chart and table to one category.
    await page.click("a.badge:text-is('session')");
    await page.waitForURL(/category=session/);
    expect(await page.locator("[data-testid=outcome-totals] tbody tr").allTextContents()).toEqual([expect.stringContaining("session")]);
  });

  it("shows the localhost filter off for a new project, switches it on and adds an error-message glob", async () => {
    await page.goto(`${server.url}${base}/settings/filters`);
    const form = page.locator("[data-testid=filters-form]");
    expect(await form.locator("input[name=localhost]").isChecked()).toBe(false);
    expect(await form.locator("input[name=scriptError]").isChecked()).toBe(true);
    await form.locator("input[name=localhost]").check();
    await form.locator("textarea[name=errorMessages]").fill("*ChunkLoadError*\nTimeoutError: *");
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    const options = await projectOptions(testCtx(store), projectId);
    expect(options.filters.localhost).toBe(true);
    expect(options.filters.scriptError).toBe(true);
    expect(options.filters.errorMessages).toEqual(["*ChunkLoadError*", "TimeoutError: *"]);
  });

  it("saves data scrubbing settings", async () => {
    await page.goto(`${server.url}${base}/settings/scrubbing`);
    const form = page.locator("[data-testid=scrubbing-form]");
    await form.locator("textarea[name=extraSensitiveFields]").fill("ssn\nbirthday");
    await form.locator("input[name=storeIpAddresses]").uncheck();
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    const options = await projectOptions(testCtx(store), projectId);
    expect(options.scrubbing).toEqual({ extraSensitiveFields: ["ssn", "birthday"], safeFields: [], storeIpAddresses: false });
  });

  it("sets a per-key rate limit and a category quota", async () => {
    await page.goto(`${server.url}${base}/settings/rate-limits`);
    const keyForm = page.locator("[data-testid=key-limit-form]").first();
    await keyForm.locator("input[name=count]").fill("500");
    await keyForm.locator("input[name=window]").fill("60");
    await keyForm.locator("button[type=submit]").click();
    await keyForm.locator(".notice").waitFor();
    const key = await store.db
      .selectFrom("project_keys")
      .select(["rate_limit_count", "rate_limit_window_seconds"])
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    expect(key).toEqual({ rate_limit_count: 500, rate_limit_window_seconds: 60 });

    await page.selectOption("select[name=category]", "transaction");
    await page.fill("input[aria-label=Count]", "1000");
    await page.click("text=Set quota");
    await page.locator("[data-testid=quotas]").waitFor();
    await waitFor(
      async () => (await page.locator("[data-testid=quotas]").textContent())?.includes("1000 per 60 s"),
      10_000,
      "the quota row",
    );
    const quotas = await store.db.selectFrom("project_quotas").selectAll().where("project_id", "=", projectId).execute();
    expect(quotas).toEqual([{ project_id: projectId, category: "transaction", limit_count: 1000, window_seconds: 60 }]);
  });

  it("refuses invalid fingerprint rules with the line and column, and saves valid ones", async () => {
    await page.goto(`${server.url}${base}/settings/grouping`);
    const form = page.locator("[data-testid=fingerprint-form]");
    await form.locator("textarea[name=rules]").fill("error.type:Timeout -> timeouts\nnot a rule");
    await form.locator("button[type=submit]").click();
    await expect(form.locator(".error").textContent()).resolves.toMatch(/^line 2, column \d+: /);
    expect(await form.locator("textarea[name=rules]").inputValue()).toContain("not a rule");
    await form
      .locator("textarea[name=rules]")
      .fill('# ours\nerror.type:Timeout* -> timeouts\nmessage:"*connection refused*" -> conn title="Connection refused"');
    await form.locator("button[type=submit]").click();
    await form.locator(".notice").waitFor();
    const row = await store.db
      .selectFrom("project_grouping")
      .select("fingerprint_rules")
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    expect(row.fingerprint_rules).toContain("-> conn title=");
  });

  it("shows the localhost filter on for a project from before the default changed", async () => {
    const ctx = testCtx(store);
    await createProject({ ctx, input: { org: "web", slug: "legacy", platform: "javascript" } });
    // What upgrading a database that held this project did (migration 0010).
    await m0010.up(store.db, dialect);
    await page.goto(`${server.url}/orgs/web/projects/legacy/settings/filters`);
    const form = page.locator("[data-testid=filters-form]");
    expect(await form.locator("input[name=localhost]").isChecked()).toBe(true);
  });
});
