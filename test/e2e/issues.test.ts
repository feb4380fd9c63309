import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { launchBrowser, signIn } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { runNodeClient } from "../support/clients";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

describe.each(DIALECTS)("issues in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let appPage: Server;
  let appUrl = "";
  let dsn = "";
  let projectId = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "web", platform: "javascript" } });
    projectId = project.id;
    await updateFilters({ ctx, input: { projectId, changes: { localhost: false } } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    dsn = buildDsn(server.url, key.public_key, project.id);
    const sdk = await browserSdkBundle();
    // The "customer" application: a page that loads @sentry/browser and throws on demand.
    appPage = createServer((req, res) => {
      if (req.url === "/sdk.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        return res.end(sdk);
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><html><head><script src="/sdk.js"></script></head><body>
<button id="checkout">Checkout</button>
<script>
function applyDiscount(cart) { return cart.coupon.code.toUpperCase(); }
function checkout() { applyDiscount({}); }
</script></body></html>`);
    });
    await new Promise<void>((r) => appPage.listen(0, "127.0.0.1", r));
    appUrl = `http://127.0.0.1:${(appPage.address() as AddressInfo).port}/`;
    browser = await launchBrowser();
    page = await browser.newPage();
    await signIn(page, server.url, "dev@example.com", /\/orgs\/shop$/);
  });

  afterAll(async () => {
    if (process.env.DEBUG_LOGS) console.log(server?.logs());
    await browser?.close();
    await new Promise((r) => appPage?.close(r));
    await server?.stop();
    await store?.cleanup();
  });

  /** Runs the customer app in a fresh tab: the SDK records a click breadcrumb, then an error is thrown. */
  async function throwFromApp(release: string) {
    const tab = await browser.newPage();
    await tab.goto(appUrl);
    await tab.evaluate(
      ({ dsn, release }) => {
        const w = window as unknown as {
          Sentry: {
            init(o: object): void;
            setTag(k: string, v: string): void;
            setContext(name: string, context: object): void;
            addBreadcrumb(b: object): void;
            captureException(e: unknown): void;
            flush(t: number): Promise<boolean>;
          };
          checkout(): void;
        };
        w.Sentry.init({ dsn, release, environment: "production" });
        w.Sentry.setTag("team", "payments");
        w.Sentry.setContext("checkout", { step: "payment", cart: { items: 3, coupon: "SPRING" }, methods: ["card", "paypal"] });
        w.Sentry.addBreadcrumb({ category: "cart", message: "coupon applied", level: "info" });
        try {
          w.checkout();
        } catch (e) {
          w.Sentry.captureException(e);
        }
        return w.Sentry.flush(5000);
      },
      { dsn, release },
    );
    await tab.close();
    await queueDrained(store);
  }

  /** The value cell of row `key` in the key/value table `table` (its own rows, not a nested table's). */
  const cell = (table: string, key: string) =>
    page
      .locator(`[data-testid=${table}] > tbody > tr`)
      .filter({ has: page.locator(`> th:text-is("${key}")`) })
      .locator("> td");

  const issueRows = async () => (await page.locator("[data-testid=issue-row] .title a").allTextContents()).map((t) => t.trim());

  it("shows a browser error in the stream, with its stack trace and breadcrumbs", async () => {
    await throwFromApp("shop@1.0.0");
    await page.goto(`${server.url}/orgs/shop/issues?project=web`);
    const title = "TypeError: Cannot read properties of undefined (reading 'code')";
    expect(await issueRows()).toEqual([title]);
    await page.click(`text=${title}`);
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    await expect(page.locator("[data-testid=issue-title]").textContent()).resolves.toBe(title);
    const frames = await page.locator("[data-testid=frame] summary").allTextContents();
    expect(frames.some((f) => f.includes("applyDiscount"))).toBe(true);
    expect(frames.some((f) => f.includes("checkout"))).toBe(true);
    const crumbs = await page.locator("[data-testid=breadcrumb]").allTextContents();
    expect(crumbs.some((c) => c.includes("coupon applied"))).toBe(true);
    // Tag distribution shows the custom tag and the release.
    const tags = await page.locator("[data-testid=tags]").textContent();
    expect(tags).toContain("team");
    expect(tags).toContain("shop@1.0.0");
    // Browser and OS parsed from the SDK's User-Agent header (headless Chromium calls itself HeadlessChrome).
    expect(tags).toContain("browser.nameChrome Headless");
    expect(tags).toContain("os.nameLinux");
    await page.click('[data-testid=tags] .tagbar:has(strong:text-is("browser.name")) a');
    await page.waitForURL(/query=browser\.name/);
    expect(await issueRows()).toEqual([title]);
  });

  it("resolves the issue with a server action, and a new event reopens it as a regression", async () => {
    await page.goto(`${server.url}/orgs/shop/issues?project=web`);
    await page.locator("[data-testid=issue-row] .title a").first().click();
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    const issueUrl = page.url();
    await page.locator("[data-testid=triage] button[value=resolve]").click();
    await waitFor(
      async () => (await page.locator("[data-testid=issue-status]").textContent()) === "resolved",
      10_000,
      "the resolved status",
    );

    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=is:unresolved`);
    await page.locator("[data-testid=no-issues]").waitFor();
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=is:resolved`);
    expect(await issueRows()).toHaveLength(1);

    await throwFromApp("shop@1.0.1");
    await page.goto(issueUrl);
    await expect(page.locator("[data-testid=issue-status]").textContent()).resolves.toBe("regressed");
    await expect(page.locator("[data-testid=activity]").textContent()).resolves.toContain("marked the issue as a regression");
    await expect(page.locator("[data-testid=issue-count]").textContent()).resolves.toBe("2");
  });

  it("narrows the stream by a tag and explains an invalid query instead of failing", async () => {
    const key = await store.db
      .selectFrom("project_keys")
      .select("public_key")
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    await runNodeClient(buildDsn(server.url, key.public_key, projectId), "basic");
    await queueDrained(store);
    await page.goto(`${server.url}/orgs/shop/issues?project=web`);
    expect((await issueRows()).length).toBeGreaterThan(1);
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("is:unresolved team:payments")}`);
    expect(await issueRows()).toEqual(["TypeError: Cannot read properties of undefined (reading 'code')"]);
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("release:node-fixture@1.0.0 !level:warning")}`);
    const rows = await issueRows();
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r !== "node fixture message 42")).toBe(true);
    const response = await page.goto(`${server.url}/orgs/shop/issues?query=${encodeURIComponent('is:nope "unterminated')}`);
    expect(response?.status()).toBe(200);
    await expect(page.locator("[data-testid=query-error]").textContent()).resolves.toMatch(/^Invalid search: /);
    // A key that is neither a property nor a tag of these issues is explained, not an empty stream.
    await page.goto(`${server.url}/orgs/shop/issues?query=${encodeURIComponent("is:unresolved bogus:field")}`);
    await expect(page.locator("[data-testid=query-error]").textContent()).resolves.toContain('Unknown search key "bogus"');
  });

  it("shows a @sentry/node event's memory and boot time as a person reads them, not as sent", async () => {
    // The events the test above sent with @sentry/node: its Context integration fills device and app.
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("release:node-fixture@1.0.0 level:error")}`);
    await page.locator("[data-testid=issue-row] .title a").first().click();
    await page.waitForSelector("[data-testid=context-device]");
    await expect(cell("context-device", "memory_size").textContent()).resolves.toMatch(/^\d+\.\d (MiB|GiB|TiB)$/);
    await expect(cell("context-device", "memory_size").locator("span").getAttribute("title")).resolves.toMatch(/^sent as \d+$/);
    await expect(cell("context-app", "app_memory").textContent()).resolves.toMatch(/^\d+\.\d (KiB|MiB|GiB)$/);
    await expect(cell("context-app", "free_memory").textContent()).resolves.toMatch(/^\d+\.\d (KiB|MiB|GiB|TiB)$/);
    await expect(cell("context-device", "boot_time").textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    await expect(cell("context-app", "app_start_time").textContent()).resolves.toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    // Fields without a unit stay as sent.
    await expect(cell("context-device", "processor_count").textContent()).resolves.toMatch(/^\d+$/);
    const contexts = await page.locator("[data-testid^=context-]").allTextContents();
    expect(contexts.join(" ")).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  it("shows a context's nested objects as nested tables and a list of values as text, not JSON", async () => {
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("team:payments")}`);
    await page.locator("[data-testid=issue-row] .title a").first().click();
    await page.waitForSelector("[data-testid=context-checkout]");
    await expect(cell("context-checkout", "step").textContent()).resolves.toBe("payment");
    await expect(cell("context-checkout", "methods").textContent()).resolves.toBe("card, paypal");
    await expect(cell("context-checkout-cart", "items").textContent()).resolves.toBe("3");
    await expect(cell("context-checkout-cart", "coupon").textContent()).resolves.toBe("SPRING");
    const text = (await page.locator("[data-testid=context-checkout]").textContent()) ?? "";
    expect(text).not.toMatch(/[{}"[\]]/);
  });

  it("renders hostile event data as text and runs none of it", async () => {
    const hostile = `<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>`;
    const tab = await browser.newPage();
    await tab.goto(appUrl);
    await tab.evaluate(
      ({ dsn, hostile }) => {
        const w = window as unknown as {
          Sentry: {
            init(o: object): void;
            setTag(k: string, v: string): void;
            setUser(u: object): void;
            setExtra(k: string, v: string): void;
            addBreadcrumb(b: object): void;
            captureException(e: unknown): void;
            flush(t: number): Promise<boolean>;
          };
        };
        w.Sentry.init({ dsn, release: `javascript:window.__xss=1//${hostile}`, environment: hostile });
        w.Sentry.setTag("payload", hostile);
        w.Sentry.setTag("link", "javascript:window.__xss=1");
        w.Sentry.setUser({ id: hostile, email: `"><svg onload=window.__xss=1>@x.com`, username: hostile });
        w.Sentry.setExtra("html", hostile);
        w.Sentry.addBreadcrumb({ category: hostile, message: hostile, level: "error", data: { url: "javascript:window.__xss=1" } });
        const error = new Error(hostile);
        error.name = `<svg/onload=window.__xss=1>`;
        w.Sentry.captureException(error);
        return w.Sentry.flush(5000);
      },
      { dsn, hostile },
    );
    await tab.close();
    await queueDrained(store);

    let dialogs = 0;
    page.on("dialog", (d) => {
      dialogs++;
      void d.dismiss();
    });
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("has:payload")}`);
    const link = page.locator("[data-testid=issue-row] .title a").first();
    await expect(link.textContent()).resolves.toContain("<svg/onload=window.__xss=1>");
    await link.click();
    await page.waitForURL(/\/orgs\/shop\/issues\/\d+$/);
    await page.locator("[data-testid=breadcrumbs]").waitFor();
    for (const url of [page.url(), `${page.url()}?frames=all`, `${page.url()}?view=raw`]) {
      await page.goto(url);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.locator("main img, main script, main svg[onload]").count()).toBe(0);
      expect(await page.locator('main a[href^="javascript:"]').count()).toBe(0);
    }
    expect(await page.content()).toContain("&lt;script&gt;window.__xss=1&lt;/script&gt;");
    expect(dialogs).toBe(0);
  });

  it("resolves several issues at once from the stream (bulk server action)", async () => {
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("is:unresolved release:node-fixture@1.0.0")}`);
    const before = await issueRows();
    expect(before.length).toBe(3);
    const boxes = page.locator("[data-testid=issue-row] input[type=checkbox]");
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.locator("[data-testid=bulk] button[value=resolve]").click();
    await page.locator("[data-testid=bulk] .notice").waitFor();
    await page.reload();
    expect(await issueRows()).toHaveLength(1);
    await page.goto(`${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("is:resolved release:node-fixture@1.0.0")}`);
    expect(await issueRows()).toHaveLength(2);
  });

  it("serves the issue and its events through the web API", async () => {
    const issue = await store.db
      .selectFrom("issues")
      .selectAll()
      .where("project_id", "=", projectId)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const res = await page.request.get(`${server.url}/api/0/organizations/shop/issues/${issue.id}/`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: String(issue.id),
      title: issue.title,
      status: "unresolved",
      substatus: "regressed",
      count: "2",
      userCount: expect.any(Number) as number,
    });
    const latest = await page.request.get(`${server.url}/api/0/organizations/shop/issues/${issue.id}/events/latest/`);
    expect(((await latest.json()) as { release: { version: string } }).release.version).toBe("shop@1.0.1");
  });
  // Issue 38, points 21 and 22: select-all and bulk assign on the stream; merge asks first, its
  // activity names the issues, and the merged issue's page undoes it.
  it("selects all, assigns in bulk, merges after a confirmation and unmerges from the merged issue's page", async () => {
    const stream = `${server.url}/orgs/shop/issues?project=web&query=${encodeURIComponent("release:node-fixture@1.0.0")}`;
    await page.goto(stream);
    expect(await issueRows()).toHaveLength(3);
    await page.locator("[data-testid=select-all]").check();
    expect(await page.locator("[data-testid=issue-row] input[type=checkbox]:checked").count()).toBe(3);
    await page.selectOption("[data-testid=bulk-assignee]", { label: "dev@example.com" });
    await page.locator("[data-testid=bulk] button[value=assign]").click();
    await expect(page.locator("[data-testid=bulk] .notice").textContent()).resolves.toBe("Updated 3 issues.");
    await page.reload();
    expect(await page.locator("[data-testid=issue-row]", { hasText: "dev@example.com" }).count()).toBe(3);

    // Two of them: the browser asks first; dismissed, nothing is merged.
    const boxes = page.locator("[data-testid=issue-row] input[type=checkbox]");
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    page.removeAllListeners("dialog");
    const asked: string[] = [];
    page.once("dialog", (d) => {
      asked.push(d.message());
      void d.dismiss();
    });
    await page.locator("[data-testid=bulk] button[value=merge]").click();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("Merge 2 issues");
    expect(await page.locator("[data-testid=bulk] .notice").count()).toBe(0);
    page.once("dialog", (d) => void d.accept());
    await page.locator("[data-testid=bulk] button[value=merge]").click();
    await expect(page.locator("[data-testid=bulk] .notice").textContent()).resolves.toMatch(/^Merged 2 issues into WEB-\w+\.$/);

    const merged = await store.db
      .selectFrom("issues")
      .select(["id", "merged_into_id", "short_number", "times_seen"])
      .where("project_id", "=", projectId)
      .where("merged_into_id", "is not", null)
      .executeTakeFirstOrThrow();
    const target = merged.merged_into_id!;
    const mergedShort = `WEB-${merged.short_number.toString(36).toUpperCase()}`;
    await page.goto(`${server.url}/orgs/shop/issues/${target}`);
    await expect(page.locator("[data-testid=activity]").textContent()).resolves.toContain(`merged ${mergedShort} into this one`);
    expect(await page.locator("[data-testid=activity]").textContent()).not.toContain("1 issues");
    await page.goto(`${server.url}/orgs/shop/issues/${merged.id}`);
    expect(await page.locator("[data-testid=merged-into] a").getAttribute("href")).toBe(`/orgs/shop/issues/${target}`);
    await page.locator("[data-testid=unmerge]").click();
    await expect(page.locator("[data-testid=triage] .notice").textContent()).resolves.toMatch(
      new RegExp(`^Unmerged ${mergedShort} from WEB-\\w+: \\d+ events? moved back\\.$`),
    );
    const after = await store.db
      .selectFrom("issues")
      .select(["merged_into_id", "status", "times_seen"])
      .where("id", "=", merged.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ merged_into_id: null, status: "unresolved", times_seen: merged.times_seen });
    const events = await store.db.selectFrom("events").select("id").where("issue_id", "=", merged.id).execute();
    expect(events.length).toBeGreaterThan(0);
    await page.goto(stream);
    expect(await issueRows()).toHaveLength(3);
    await page.goto(`${server.url}/orgs/shop/issues/${target}`);
    await expect(page.locator("[data-testid=activity]").textContent()).resolves.toContain(`unmerged ${mergedShort} out of this issue`);
  });
});
