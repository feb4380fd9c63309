import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { RESET_REQUESTED } from "../../src/core/accounts/password-reset";
import { createOrganization } from "../../src/core/orgs/create-org";
import { launchBrowser, signIn } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { startSmtp, type TestSmtp } from "../support/smtp";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = join(import.meta.dirname, "..", "..", "test-results");
const EMAIL = "ada@example.com";
const OLD = "password-123";
const NEW = "a fresh password 456";

/**
 * Issue 12, item 3: "Forgot your password?" end to end, with a real SMTP server in the test. The
 * email is received over SMTP, parsed, and its link followed in headless Chromium; the new
 * password signs in, the old one no longer does, and the link does not work twice.
 */
describe.each(DIALECTS)("password reset by email in Chromium on %s", (dialect) => {
  let store: TestStore;
  let smtp: TestSmtp;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let link = "";

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: EMAIL, password: OLD, name: "Ada" } });
    await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: EMAIL } });
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

  const requestReset = async (email: string) => {
    await page.goto(`${server.url}/login`);
    await page.click("a:text-is('Forgot your password?')");
    await page.waitForURL(/\/forgot-password$/);
    await page.fill("input[name=email]", email);
    await page.click("main button[type=submit]");
    const notice = page.locator("[data-testid=forgot-form] .notice");
    await notice.waitFor();
    return notice.textContent();
  };

  it("answers an unknown address as it answers a known one, and mails nothing", async () => {
    expect(await requestReset("nobody@example.com")).toBe(RESET_REQUESTED);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `forgot-password-${dialect}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, `forgot-password-${dialect}-1280.png`), fullPage: true });
    expect(smtp.countTo("nobody@example.com")).toBe(0);
  });

  it("mails a known address a link to TELLTALE_URL, as text and HTML, from Telltale at its host", async () => {
    expect(await requestReset(EMAIL)).toBe(RESET_REQUESTED);
    const mail = await smtp.nextTo(EMAIL);
    expect(mail.subject).toBe("Reset your Telltale password");
    expect(mail.from?.text).toBe('"Telltale" <telltale@localhost>');
    expect(mail.messageId).toMatch(/^<[0-9a-f]{32}@localhost>$/);
    const inText = mail.text?.match(/http:\/\/localhost:\d+\/reset-password\/[\w-]{43}/)?.[0];
    expect(inText?.startsWith(`${server.url}/reset-password/`)).toBe(true);
    expect(mail.html || "").toContain(`href="${inText}"`);
    link = inText ?? "";
    // The SMTP password is in TELLTALE_SMTP_URL only: never in a log line. The server logs the
    // sending once the SMTP exchange ends, which can be after the inbox has the message.
    await expect.poll(() => server.logs(), { timeout: 10_000 }).toContain("email sent");
    expect(server.logs()).not.toContain(smtp.password);
  });

  it("follows the link, sets the new password and lands signed in", async () => {
    await page.goto(link);
    await page.locator("[data-testid=reset-form]").waitFor();
    expect(await page.locator("main").textContent()).toContain(`For ${EMAIL}.`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `reset-password-${dialect}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(SHOTS, `reset-password-${dialect}-1280.png`), fullPage: true });
    await page.fill("input[name=password]", NEW);
    await page.click("main button[type=submit]");
    await page.waitForURL(/\/orgs\/acme$/);
  });

  it("signs in with the new password only", async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await other.goto(`${server.url}/login`);
      await other.fill("input[name=email]", EMAIL);
      await other.fill("input[name=password]", OLD);
      await other.click("main button[type=submit]");
      await expect(other.locator("main [role=alert]").textContent()).resolves.toBe("Wrong email or password.");
      await signIn(other, server.url, EMAIL, /\/orgs\/acme$/, NEW);
    } finally {
      await other.close();
    }
  });

  it("does not work twice", async () => {
    await page.goto(link);
    await page.locator("[data-testid=reset-invalid]").waitFor();
    expect(await page.locator("[data-testid=reset-form]").count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, `reset-password-used-${dialect}-1280.png`), fullPage: true });
  });
});
