import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, type TestStore } from "../support/stores";

const SHOTS = process.env.SCREENSHOTS;

/** Issue 10, bug 6: the first-run form reports every field's problem at once and keeps what was typed. */
describe.each(DIALECTS)("the setup form in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("shows a bad email, a short password and a bad slug at once, beside their fields, and keeps every value", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/setup`);
    await page.fill("input[name=email]", "not-an-email");
    await page.fill("input[name=name]", "Ada");
    await page.fill("input[name=password]", "short");
    await page.fill("input[name=orgSlug]", "Bad Slug!");
    await page.click("main button[type=submit]");
    await page.locator("[data-testid=orgSlug-error]").waitFor();
    await expect(page.textContent("[data-testid=email-error]")).resolves.toBe("enter a valid email address");
    await expect(page.textContent("[data-testid=password-error]")).resolves.toBe("use at least 8 characters for the password");
    await expect(page.textContent("[data-testid=orgSlug-error]")).resolves.toContain("use lowercase letters");
    // Issue 38, point 25: the form asks for the organization's name too, not only its slug.
    await expect(page.textContent("[data-testid=orgName-error]")).resolves.toBe("name your organization");
    expect(await page.locator("[data-testid=name-error]").count()).toBe(0);
    expect(await page.locator("main form .error").allTextContents()).toEqual(["Check the fields marked below."]);
    // Each message sits in its field's label, under the input.
    const emailLabel = page.locator("label", { has: page.locator("input[name=email]") });
    await expect(emailLabel.locator("[data-testid=email-error]").count()).resolves.toBe(1);
    expect(await page.getAttribute("input[name=password]", "aria-describedby")).toBe("password-error");
    // What was typed is still there, the password too (the server never sent it back).
    expect(await page.inputValue("input[name=email]")).toBe("not-an-email");
    expect(await page.inputValue("input[name=name]")).toBe("Ada");
    expect(await page.inputValue("input[name=password]")).toBe("short");
    expect(await page.inputValue("input[name=orgSlug]")).toBe("Bad Slug!");
    expect(await page.content()).not.toContain('value="short"');
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(SHOTS, `setup-errors-${dialect}-${width}.png`), fullPage: true });
      }
    }

    await page.fill("input[name=email]", "ada@example.com");
    await page.fill("input[name=password]", "long-enough-1");
    await page.fill("input[name=orgName]", "Acme Inc.");
    await page.fill("input[name=orgSlug]", "acme");
    await page.click("main button[type=submit]");
    await page.waitForURL(/\/orgs\/acme$/);
    await expect(page.locator("main").textContent()).resolves.toContain("Acme Inc.");
    await page.close();
  });
});
