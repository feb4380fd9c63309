import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium (README, "Set up": CHROMIUM_PATH); flags keep it off the closed network at start. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Signs in through the login form, as a person would, and waits for the page it lands on
 * (an organization by default): the one sign-in every browser test shares.
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  lands: RegExp = /\/orgs\/[a-z0-9-]+$/,
  password = "password-123",
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill("input[name=email]", email);
  await page.fill("input[name=password]", password);
  await page.click("main button[type=submit]");
  await page.waitForURL(lands);
}
