import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { TOTP_PERIOD_SECONDS, totpCodeAt } from "../../src/core/twofactor/totp";
import { launchBrowser } from "../support/browser";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const SHOTS = "/tmp/shots-totp";
const PASSWORD = "password-123";
const ADA = "ada@example.com";
const BOB = "bob@example.com";
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

/**
 * Issue 15, item 2, end to end in headless Chromium against the built server: enrolment with the
 * key the page shows and a code computed here, as an authenticator app would; sign-in asking for
 * the code after the password; a recovery code that works once; and "require two-factor" sending
 * a member without it to enrol before anything else. TOTP secrets are sealed (TELLTALE_SECRET_KEY).
 */
describe.each(DIALECTS)("two-factor sign-in in Chromium on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;
  let secret = "";
  let recoveryCodes: string[] = [];

  const shoot = async (page: Page, name: string) => {
    for (const [width, height] of [
      [390, 844],
      [1280, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${SHOTS}/${name}-${dialect}-${width}.png`, fullPage: true });
    }
  };
  const fresh = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    return { context, page: await context.newPage() };
  };
  const typePassword = async (page: Page, email: string) => {
    await page.goto(`${server.url}/login`);
    await page.fill("input[name=email]", email);
    await page.fill("input[name=password]", PASSWORD);
    await page.click("main button[type=submit]");
  };
  /** Enrols on the page the browser is on, with the key it shows; answers the recovery codes. */
  const enrol = async (page: Page): Promise<{ secret: string; codes: string[] }> => {
    const key = ((await page.locator("[data-testid=totp-secret]").textContent()) ?? "").replace(/\s/g, "");
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await page.fill("[data-testid=enrol-form] input[name=code]", await totpCodeAt(key, Date.now()));
    await page.click("[data-testid=enrol-form] button[type=submit]");
    await page.locator("[data-testid=recovery-codes]").waitFor();
    const codes = await page.locator("[data-testid=recovery-codes] li code").allTextContents();
    return { secret: key, codes };
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: ADA, password: PASSWORD, name: "Ada" } });
    await createUser({ ctx, input: { email: BOB, password: PASSWORD, name: "Bob" } });
    const org = await createOrganization({ ctx, input: { slug: "acme", name: "Acme", owner: ADA } });
    const bob = await store.db.selectFrom("users").select("id").where("email", "=", BOB).executeTakeFirstOrThrow();
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: bob.id, role: "member", created_at: Date.now() })
      .execute();
    server = await startServer({
      ...store.env,
      TELLTALE_SELF_DSN: "off",
      TELLTALE_SECRET_KEY: "an e2e server key, at least thirty-two characters",
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    if (process.env.DEBUG_E2E) console.log(server?.logs());
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("turns two-factor on from the account page with a code computed from the key it shows", async () => {
    const { context, page } = await fresh();
    try {
      await typePassword(page, ADA);
      await page.waitForURL(/\/orgs\/acme$/);
      await page.goto(`${server.url}/account`);
      await page.click("[data-testid=two-factor-summary] a:text-is('Turn on')");
      await page.waitForURL(/\/account\/two-factor$/);
      await expect(page.locator("img.two-factor-qr").getAttribute("src")).resolves.toMatch(/^data:image\/svg\+xml;base64,/);
      await shoot(page, "two-factor-enrol");
      ({ secret, codes: recoveryCodes } = await enrol(page));
      expect(recoveryCodes).toHaveLength(10);
      await shoot(page, "two-factor-recovery-codes");
      await page.click("[data-testid=recovery-done]");
      await expect(page.locator("[data-testid=two-factor-status]").textContent()).resolves.toContain("10 of 10 left");
      await shoot(page, "two-factor-on");
      const stored = await store.db.selectFrom("user_totp").select("secret").executeTakeFirstOrThrow();
      expect(stored.secret.startsWith("v1:")).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("asks for the code after the password, refuses a wrong one and signs in with the right one", async () => {
    const { context, page } = await fresh();
    try {
      await typePassword(page, ADA);
      await page.waitForURL(/\/login\/two-factor\?next=/);
      // The pending sign-in is no session: an organization page still sends to the sign-in page.
      const other = await context.newPage();
      await other.goto(`${server.url}/orgs/acme`);
      expect(new URL(other.url()).pathname).toBe("/login");
      await other.close();
      await shoot(page, "two-factor-sign-in");
      await page.fill("input[name=code]", "000000" === (await totpCodeAt(secret, Date.now())) ? "111111" : "000000");
      await page.click("main button[type=submit]");
      await expect(page.locator("main [role=alert]").textContent()).resolves.toMatch(/^That code is not right/);
      await shoot(page, "two-factor-wrong-code");
      // The next step's code: the enrolment used this step's, and a code works once.
      await page.fill("input[name=code]", await totpCodeAt(secret, Date.now() + STEP_MS));
      await page.click("main button[type=submit]");
      await page.waitForURL(/\/orgs\/acme$/);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("signs in with a recovery code once", async () => {
    for (const attempt of ["first", "second"]) {
      const { context, page } = await fresh();
      try {
        await typePassword(page, ADA);
        await page.waitForURL(/\/login\/two-factor/);
        await page.fill("input[name=code]", recoveryCodes[0]!);
        await page.click("main button[type=submit]");
        if (attempt === "first") await page.waitForURL(/\/orgs\/acme$/);
        else await expect(page.locator("main [role=alert]").textContent()).resolves.toMatch(/^That code is not right/);
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it("sends a member without two-factor to enrol once the organization requires it, and back afterwards", async () => {
    const owner = await fresh();
    try {
      await typePassword(owner.page, ADA);
      await owner.page.waitForURL(/\/login\/two-factor/);
      await owner.page.fill("input[name=code]", recoveryCodes[1]!);
      await owner.page.click("main button[type=submit]");
      await owner.page.waitForURL(/\/orgs\/acme$/);
      await owner.page.goto(`${server.url}/orgs/acme/settings`);
      await owner.page.check("[data-testid=require-2fa-form] input[name=required]");
      await owner.page.click("[data-testid=require-2fa-form] button[type=submit]");
      await expect(owner.page.locator("[data-testid=require-2fa-form] .notice").textContent()).resolves.toMatch(/now sent to set it up/);
      await shoot(owner.page, "org-settings-require-2fa");
    } finally {
      await owner.context.close();
    }

    const { context, page } = await fresh();
    try {
      await typePassword(page, BOB);
      await page.waitForURL(/\/account\/two-factor\?next=%2Forgs%2Facme$/);
      await page.locator("[data-testid=two-factor-required]").waitFor();
      await shoot(page, "two-factor-required");
      // Any page of the organization, not only its home.
      await page.goto(`${server.url}/orgs/acme/members`);
      await page.waitForURL(/\/account\/two-factor\?next=%2Forgs%2Facme%2Fmembers$/);
      await enrol(page);
      await page.click("[data-testid=recovery-done]");
      await page.waitForURL(/\/orgs\/acme\/members$/);
      await page.locator("main h1").waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);
});
