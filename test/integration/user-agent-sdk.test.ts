import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { handleApi } from "../../src/server/api/router";
import { setLogLevel } from "../../src/server/log";
import { launchBrowser } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { startFront, type TestFront } from "../support/front";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";
import { decodePayload } from "../../src/core/storage/payload";

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe.each(DIALECTS)("browser contexts from @sentry/browser's User-Agent on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  let browser: Browser;
  let page: Server;
  let pageUrl = "";
  let api: Server;
  let apiUrl = "";
  let token = "";
  let projectId = 0;
  let dsn = "";

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    const { project, key } = await createProject({ ctx, input: { org: "acme", slug: "web", platform: "javascript" } });
    projectId = project.id;
    ({ token } = await createToken({ ctx, input: { user: "owner@example.com" } }));
    front = await startFront(ctx);
    dsn = buildDsn(front.base, key.public_key, project.id);
    const sdk = await browserSdkBundle();
    page = createServer((req, res) => {
      if (req.url === "/sdk.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(sdk);
      res
        .writeHead(200, { "content-type": "text/html" })
        .end('<!doctype html><html><head><script src="/sdk.js"></script></head><body>shop</body></html>');
    });
    pageUrl = await listen(page);
    api = createServer((req, res) => void handleApi(ctx, req, res).catch((e: unknown) => res.writeHead(500).end(String(e))));
    apiUrl = await listen(api);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (page ? page.close(() => r()) : r()));
    await new Promise<void>((r) => (api ? api.close(() => r()) : r()));
    await front?.close();
    await store?.cleanup();
  });

  /** Throws in a page opened with `userAgent` and digests until the event is stored. */
  async function throwFrom(userAgent: string, message: string): Promise<{ data: string | Buffer; issue_id: number | null }> {
    const context = await browser.newContext({ userAgent });
    const tab = await context.newPage();
    await tab.goto(pageUrl);
    await tab.evaluate(
      ({ dsn, message }) => {
        const Sentry = (
          window as unknown as { Sentry: { init(o: object): void; captureException(e: Error): void; flush(t: number): Promise<boolean> } }
        ).Sentry;
        Sentry.init({ dsn });
        Sentry.captureException(new TypeError(message));
        return Sentry.flush(5000);
      },
      { dsn, message },
    );
    await context.close();
    return waitFor(
      async () => {
        await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
        return store.db
          .selectFrom("events")
          .select(["data", "issue_id"])
          .where("project_id", "=", projectId)
          .where("title", "=", `TypeError: ${message}`)
          .executeTakeFirst();
      },
      15_000,
      "the stored event",
    );
  }

  /** What this Chromium says it is when left alone. */
  async function headlessUserAgent(): Promise<string> {
    const probe = await browser.newPage();
    const ua = await probe.evaluate(() => navigator.userAgent);
    await probe.close();
    return ua;
  }

  const search = async (query: string): Promise<string[]> => {
    const res = await fetch(`${apiUrl}/api/0/projects/acme/web/issues/?query=${encodeURIComponent(query)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { title: string }[]).map((i) => i.title).sort();
  };

  it("stores Chrome's browser and OS, tags the issue with them and finds it by browser.name:Chrome", async () => {
    // The user agent a user's Chrome of this build sends: headless Chromium says "HeadlessChrome",
    // which the parser rightly reports as another browser ("Chrome Headless").
    const headless = await headlessUserAgent();
    const chrome = headless.replace("HeadlessChrome/", "Chrome/");
    const event = await throwFrom(chrome, "checkout failed");
    const data = JSON.parse(decodePayload(event.data)) as {
      contexts: Record<string, { name?: string; version?: string }>;
      request: { headers: [string, string][] };
    };
    expect(data.request.headers).toContainEqual(["User-Agent", chrome]);
    expect(data.contexts.browser).toMatchObject({ name: "Chrome", version: expect.stringMatching(/^\d+\./) });
    expect(data.contexts.os).toMatchObject({ name: "Linux" });
    expect(data.contexts.device).toBeUndefined();
    const tags = await store.db
      .selectFrom("issue_tags")
      .select(["key", "value"])
      .where("issue_id", "=", event.issue_id ?? 0)
      .execute();
    expect(tags).toEqual(
      expect.arrayContaining([
        { key: "browser.name", value: "Chrome" },
        { key: "os.name", value: "Linux" },
      ]),
    );

    const headlessEvent = await throwFrom(headless, "headless run");
    expect((JSON.parse(decodePayload(headlessEvent.data)) as { contexts: { browser: { name: string } } }).contexts.browser.name).toBe(
      "Chrome Headless",
    );

    expect(await search("browser.name:Chrome")).toEqual(["TypeError: checkout failed"]);
    expect(await search('browser.name:"Chrome Headless"')).toEqual(["TypeError: headless run"]);
    expect(await search("os.name:Linux")).toEqual(["TypeError: checkout failed", "TypeError: headless run"]);
    expect(await search("browser.name:Firefox")).toEqual([]);
  });
});
