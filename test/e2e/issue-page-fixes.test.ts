import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { launchBrowser, signIn } from "../support/browser";
import { runNodeClient } from "../support/clients";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const SHOTS = process.env.SCREENSHOTS;

/** Full-page screenshots at a phone's and a desktop's width, when SCREENSHOTS names a folder. */
async function shots(page: Page, name: string, part?: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    await page.screenshot({ path: join(SHOTS, `${name}-top-${width}.png`) });
    if (part) await page.locator(part).screenshot({ path: join(SHOTS, `${name}-part-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Issue 10, bugs 2 and 6: the assignee picker after an action, and request headers as tables. */
describe.each(DIALECTS)("the issue page in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let issueUrl = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createUser({ ctx, input: { email: "ada@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const org = await store.db.selectFrom("organizations").select("id").where("slug", "=", "shop").executeTakeFirstOrThrow();
    const ada = await store.db.selectFrom("users").select("id").where("email", "=", "ada@example.com").executeTakeFirstOrThrow();
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: ada.id, role: "member", created_at: Date.now() })
      .execute();
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "api", platform: "node" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    await runNodeClient(buildDsn(server.url, key.public_key, project.id), "request");
    await queueDrained(store);
    const issue = await store.db.selectFrom("issues").select("id").executeTakeFirstOrThrow();
    issueUrl = `${server.url}/orgs/shop/issues/${issue.id}`;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("keeps the chosen assignee after the action, without a reload, and shows one banner", async () => {
    await page.goto(issueUrl);
    await page.locator("[data-testid=triage] [data-testid=bookmark]").click();
    await waitFor(async () => (await page.locator("[data-testid=bookmark]").textContent())?.includes("Bookmarked"), 10_000, "the bookmark");
    const ada = await page.locator("[data-testid=assignee] option", { hasText: "ada@example.com" }).getAttribute("value");
    await page.selectOption("[data-testid=assignee]", ada ?? "");
    await page.locator("[data-testid=assign-form] button[value=assign]").click();
    await waitFor(
      async () => (await page.locator("[data-testid=activity]").textContent())?.includes("assigned the issue"),
      10_000,
      "the assignment in the activity",
    );
    await page.waitForTimeout(300);
    expect(await page.locator("[data-testid=assignee]").inputValue()).toBe(ada);
    expect(await page.locator("text=Updated.").count()).toBe(1);
    await shots(page, `issue-assigned-${dialect}`);
    const row = await store.db.selectFrom("issues").select("assignee_id").executeTakeFirstOrThrow();
    expect(String(row.assignee_id)).toBe(ada);
    await page.reload();
    expect(await page.locator("[data-testid=assignee]").inputValue()).toBe(ada);
  });

  it("shows request headers and cookies as key/value tables, not JSON", async () => {
    await page.goto(issueUrl);
    const text = (await page.locator("[data-testid=request-panel]").textContent()) ?? "";
    expect(text).not.toContain("[[");
    expect(text).not.toContain('"User-Agent"');
    const headers = page.locator("[data-testid=request-headers] tr");
    expect(await headers.allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^User-Agent\s*fixture-agent\/1\.0$/)]));
    const cookies = await page.locator("[data-testid=request-cookies] tr").allTextContents();
    expect(cookies).toEqual(expect.arrayContaining([expect.stringMatching(/^theme\s*dark$/), expect.stringMatching(/^region\s*eu$/)]));
    await shots(page, `issue-request-${dialect}`, "[data-testid=request-panel]");
  });
});
