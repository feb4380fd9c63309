import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";
import { decodePayload } from "../../src/core/storage/payload";

const ADMIN = { email: "admin@example.com", password: "correct horse battery" };

describe.each(DIALECTS)("the web UI on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    // Whole traces: the trace test below looks for the server span of one browser request.
    server = await startServer({
      ...store.env,
      TELLTALE_LOGIN_MAX_FAILURES: "4",
      TELLTALE_DEBUG_PAGES: "true",
      TELLTALE_SELF_TRACES_SAMPLE_RATE: "1",
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  async function signIn(page: Page, password = ADMIN.password) {
    await page.goto(`${server.url}/login`);
    await page.fill("input[name=email]", ADMIN.email);
    await page.fill("input[name=password]", password);
    await page.click("main button[type=submit]");
  }

  /** The form's error message, once the server action has answered. */
  async function formError(page: Page): Promise<string> {
    const error = page.locator("main form .error");
    await error.waitFor();
    return (await error.textContent()) ?? "";
  }

  it("asks for the first admin on first run, then lands in the new organization", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe("/setup");
    await page.fill("input[name=email]", ADMIN.email);
    await page.fill("input[name=password]", ADMIN.password);
    await page.fill("input[name=orgName]", "Acme Inc.");
    await page.fill("input[name=orgSlug]", "acme");
    await page.click("main button[type=submit]");
    await page.waitForURL(/\/orgs\/acme$/);
    await expect(page.textContent("h1")).resolves.toContain("Projects");
    // The setup page is gone once an admin exists.
    await page.goto(`${server.url}/setup`);
    expect(new URL(page.url()).pathname).not.toBe("/setup");
    await page.close();
  });

  it("shows an error for a wrong password and no session cookie", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, "not the password");
    expect(await formError(page)).toBe("Wrong email or password.");
    expect((await context.cookies()).find((c) => c.name === "telltale_session")).toBeUndefined();
    await context.close();
  });

  it("signs in, creates a project and shows its DSN", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(/\/orgs\/acme$/);
    const cookie = (await context.cookies()).find((c) => c.name === "telltale_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });

    await page.click("text=Create project");
    await page.waitForURL(/\/projects\/new$/);
    await page.selectOption("select[name=platform]", "node");
    await page.fill("input[name=slug]", "backend");
    await page.click("main button[type=submit]");
    // A new project lands on its platform's setup guide, DSN filled in.
    await page.waitForURL(/\/orgs\/acme\/projects\/backend\/setup\/node$/);
    const dsn = await page.locator("[data-testid=dsn]").textContent();
    expect(dsn).toMatch(new RegExp(`^http://[0-9a-f]{32}@localhost:${server.port}/\\d+$`));

    // The key is real: the project's key list in the database holds it.
    const key = dsn!.slice("http://".length, "http://".length + 32);
    const row = await store.db.selectFrom("project_keys").select("is_active").where("public_key", "=", key).executeTakeFirst();
    expect(row?.is_active).toBe(1);

    // The set-up snippet (a catch-all route) carries the same DSN.
    await page.goto(`${server.url}/orgs/acme/projects/backend/setup/javascript/nextjs`);
    // (Some guides open with a file that holds no DSN, such as next.config.ts: any snippet may carry it.)
    expect((await page.locator("[data-testid=snippet]").allTextContents()).join("\n")).toContain(dsn!);
    await context.close();
  });

  it("creates, disables and rotates client keys with server actions", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(/\/orgs\/acme$/);
    await page.goto(`${server.url}/orgs/acme/projects/backend/settings/keys`);
    await page.fill("input[name=label]", "Mobile");
    await page.click("text=Create key");
    await waitFor(async () => (await page.locator("[data-testid=key-row]").count()) === 2, 30_000, "the new key row");

    const mobile = page.locator("[data-testid=key-row]", { hasText: "Mobile" });
    await mobile.locator("button", { hasText: "Disable" }).click();
    await waitFor(async () => (await mobile.locator(".badge").textContent()) === "disabled", 30_000, "the key to be disabled");

    const defaultRow = page.locator("[data-testid=key-row]", { hasText: "Default" }).first();
    await defaultRow.locator("button", { hasText: "Rotate" }).click();
    await waitFor(async () => (await page.locator("[data-testid=key-row]").count()) === 3, 30_000, "the rotated key");
    const rows = await store.db
      .selectFrom("project_keys")
      .innerJoin("projects", "projects.id", "project_keys.project_id")
      .select(["project_keys.label", "project_keys.is_active"])
      .where("projects.slug", "=", "backend")
      .orderBy("project_keys.id")
      .execute();
    expect(rows).toEqual([
      { label: "Default", is_active: 0 },
      { label: "Mobile", is_active: 0 },
      { label: "Default", is_active: 1 },
    ]);

    // Issue 38, point 23: on a phone each key is a block; no label breaks mid-word ("Defaul t")
    // and nothing sticks out of the page.
    await page.setViewportSize({ width: 390, height: 900 });
    const labelLines = await page.locator("[data-testid=key-row] > td:first-child").evaluateAll((cells) =>
      cells.map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td.firstChild ?? td);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
    expect(labelLines).toEqual([1, 1, 1]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/keys-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/keys-1280.png`, fullPage: true });
    await context.close();
  });

  it("answers an unknown URL with the not-found page and status 404", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect(page.textContent("h1")).resolves.toBe("Page not found");
    await page.close();
  });

  it("shows the generic error page with the digest, and reports the error to itself tagged with it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(/\/orgs\/acme$/);
    const response = await page.goto(`${server.url}/debug/server-error`);
    expect(response?.status()).toBe(500);
    await expect(page.textContent("h1")).resolves.toBe("Something went wrong");
    const digest = (await page.locator("[data-testid=digest]").textContent()) ?? "";
    expect(digest).toMatch(/^\d+$/);
    expect(await page.content()).not.toContain("deliberate server error");

    // Self-monitoring: the server SDK's event is ingested and digested into Telltale's own project.
    const event = await waitFor(
      async () => {
        const rows = await store.db
          .selectFrom("events")
          .innerJoin("projects", "projects.id", "events.project_id")
          .select(["events.title", "events.data"])
          .where("projects.slug", "=", "telltale")
          .execute();
        return rows.find((r) => r.title.includes("deliberate server error") && decodePayload(r.data).includes(`["digest","${digest}"]`));
      },
      20_000,
      "the self-reported error event",
    );
    expect(event.title).toBe("Error: Telltale debug: deliberate server error");
    await context.close();
  });

  it("sends sentry-trace and baggage on same-origin fetches only", async () => {
    const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
    const other: Server = createServer((req, res) => {
      seen.push({ method: req.method ?? "", headers: req.headers });
      res.writeHead(200, { "access-control-allow-origin": "*", "access-control-allow-headers": "*" });
      res.end("ok");
    });
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/ping`;

    // The pages' CSP (connect-src 'self') refuses the cross-origin fetch outright; this test is
    // about the SDK's own propagation targets, so it lets the fetch through.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(/\/orgs\/acme$/);
    await page.waitForFunction(() => "__SENTRY__" in window);
    const sameOrigin = page.waitForRequest((r) => r.url().endsWith("/api/0/organizations/acme/projects/"));
    await page.evaluate(() => fetch("/api/0/organizations/acme/projects/").then((r) => r.status));
    const headers = (await sameOrigin).headers();
    expect(headers["sentry-trace"]).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}(-[01])?$/);
    expect(headers.baggage).toContain("sentry-trace_id=");

    // The server continues the browser's trace (PRODUCT.md fact 7): its route span carries the same trace id.
    const pageRequest = page.waitForRequest((r) => r.url().endsWith("/orgs/acme?probe=1"));
    await page.evaluate(() => fetch("/orgs/acme?probe=1").then((r) => r.status));
    const traceId = (await pageRequest).headers()["sentry-trace"]?.slice(0, 32) ?? "missing";
    await waitFor(
      async () => {
        const spans = await store.db.selectFrom("spans").select("name").where("trace_id", "=", traceId).execute();
        return spans.some((s) => s.name.includes("/orgs/[org]"));
      },
      30_000,
      "a server span in the browser's trace",
    );

    await page.evaluate((url) => fetch(url).then((r) => r.text()), otherUrl);
    expect(seen.length).toBeGreaterThan(0);
    for (const r of seen) {
      expect(r.headers["sentry-trace"]).toBeUndefined();
      expect(r.headers.baggage).toBeUndefined();
      expect(r.headers["access-control-request-headers"] ?? "").not.toContain("sentry-trace");
    }
    await context.close();
    await new Promise((r) => other.close(r));
  });

  it("follows a link to an /api/ URL with a full page load", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.waitForURL(/\/orgs\/acme$/);
    await page.goto(`${server.url}/orgs/acme/projects/backend/settings/keys`);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    const documentRequest = page.waitForRequest(
      (r) => r.url().includes("/api/0/projects/acme/backend/keys/") && r.resourceType() === "document",
    );
    await page.click("a[href='/api/0/projects/acme/backend/keys/']");
    await documentRequest;
    await page.waitForURL(/\/api\/0\/projects\/acme\/backend\/keys\/$/);
    // A full load replaced the window: the marker set on the previous page is gone.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined();
    const keys = JSON.parse((await page.textContent("body")) ?? "[]") as { dsn: { public: string } }[];
    expect(keys[0]?.dsn.public).toContain(`@localhost:${server.port}/`);
    await context.close();
  });

  it("throttles sign-in after repeated failures with a clear message", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await store.db.deleteFrom("login_attempts").execute(); // earlier tests' failures would count
    for (let i = 0; i < 4; i++) {
      await signIn(page, `wrong ${i}`);
      expect(await formError(page)).toBe("Wrong email or password.");
      await page.reload();
    }
    await signIn(page); // even the right password is refused now
    expect(await formError(page)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minute/);
    await context.close();
  });
});
