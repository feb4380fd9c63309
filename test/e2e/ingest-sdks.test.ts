import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDsn } from "../../src/core/auth/dsn";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { setProjectQuota } from "../../src/core/projects/quotas";
import { updateFilters } from "../../src/core/projects/options";
import { launchBrowser } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { runNodeClient, runPythonClient, runSentryCli } from "../support/clients";
import { outcomesOf, quantity, queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";
import { decodePayload } from "../../src/core/storage/payload";

describe.each(DIALECTS)("real SDKs against Telltale on %s", (dialect) => {
  let store: TestStore;
  let server: TestServer;
  let browser: Browser;

  async function project(slug: string): Promise<{ id: number; dsn: string }> {
    const { project, key } = await createProject({ ctx: testCtx(store), input: { org: "sdks", slug } });
    return { id: project.id, dsn: buildDsn(server.url, key.public_key, project.id) };
  }

  const events = (projectId: number) =>
    store.db
      .selectFrom("events")
      .select(["title", "level", "release", "environment", "data"])
      .where("project_id", "=", projectId)
      .orderBy("id")
      .execute();

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createOrganization({ ctx: testCtx(store), input: { slug: "sdks" } });
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await store?.cleanup();
  });

  it("stores what @sentry/node sends: errors, messages, a trace, sessions, and a gzipped large event", async () => {
    const p = await project("node");
    await runNodeClient(p.dsn, "basic");
    await queueDrained(store);
    const stored = await events(p.id);
    expect(stored.map((e) => e.title).sort()).toEqual(
      [
        "Error: node fixture large event",
        "SyntaxError: Expected property name or '}' in JSON at position 1",
        "node fixture message 42",
      ].sort(),
    );
    const message = stored.find((e) => e.title === "node fixture message 42")!;
    expect(message).toMatchObject({ level: "warning", release: "node-fixture@1.0.0", environment: "test" });
    const large = JSON.parse(decodePayload(stored.find((e) => e.title.includes("large event"))!.data)) as { extra?: { blob?: string } };
    // The envelope was over 32 KiB, so the SDK gzipped it; normalization then trims one extra
    // value to 16 KiB (develop docs, "Variable Size").
    expect(large.extra?.blob?.length).toBeGreaterThan(16_000);
    expect(large.extra?.blob?.length).toBeLessThanOrEqual(16 * 1024);
    const error = JSON.parse(decodePayload(stored.find((e) => e.title.startsWith("SyntaxError"))!.data)) as {
      exception: { values: { stacktrace: { frames: unknown[] } }[] };
      breadcrumbs: { values: { message?: string }[] };
      user: { email: string };
    };
    expect(error.exception.values[0]!.stacktrace.frames.length).toBeGreaterThan(0);
    expect(error.breadcrumbs.values.map((b) => b.message)).toContain("user signed in");
    expect(error.user.email).toBe("ada@example.com");

    const tx = await store.db.selectFrom("transactions").select(["name", "op", "trace_id"]).where("project_id", "=", p.id).execute();
    expect(tx).toHaveLength(1);
    expect(tx[0]).toMatchObject({ name: "node fixture transaction", op: "task" });
    const spans = await store.db.selectFrom("spans").select(["name"]).where("trace_id", "=", tx[0]!.trace_id).execute();
    expect(spans.map((s) => s.name).sort()).toEqual(["child work", "node fixture transaction"]);
    const sessions = await store.db.selectFrom("session_counts").select(["status", "quantity"]).where("project_id", "=", p.id).execute();
    expect(sessions.find((s) => s.status === "started")?.quantity).toBeGreaterThanOrEqual(1);
    const outcomes = await outcomesOf(store, p.id);
    expect(quantity(outcomes, "error", "accepted")).toBe(3);
  });

  it("stores what sentry-python 1.9 sends to /store/ (gzip, X-Sentry-Auth) and its transaction", async () => {
    const p = await project("python");
    await runPythonClient(p.dsn);
    await queueDrained(store);
    const stored = await events(p.id);
    expect(stored.map((e) => e.title).sort()).toEqual(["KeyError: 'missing key'", "python fixture message"]);
    const keyError = JSON.parse(decodePayload(stored.find((e) => e.title.startsWith("KeyError"))!.data)) as {
      platform: string;
      user: { email: string };
    };
    expect(keyError.platform).toBe("python");
    expect(keyError.user.email).toBe("grace@example.com");
    const tx = await store.db.selectFrom("transactions").select(["name"]).where("project_id", "=", p.id).execute();
    expect(tx.map((t) => t.name)).toEqual(["python fixture transaction"]);
  });

  it("stores an event from sentry-cli send-event", async () => {
    const p = await project("cli");
    await runSentryCli(p.dsn, ["-m", "deploy finished", "-l", "info", "-r", "cli@2.0", "-t", "stage:canary", "--no-environ"]);
    await queueDrained(store);
    const stored = await events(p.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ title: "deploy finished", level: "info", release: "cli@2.0" });
    expect(JSON.parse(decodePayload(stored[0]!.data)).tags).toContainEqual(["stage", "canary"]);
  });

  describe("@sentry/browser in Chromium", () => {
    let page: Server;
    let pageUrl: string;
    let tunnelTarget = "";

    beforeAll(async () => {
      const sdk = await browserSdkBundle();
      page = createServer((req, res) => {
        if (req.url === "/sdk.js") {
          res.writeHead(200, { "content-type": "text/javascript" });
          return res.end(sdk);
        }
        if (req.url === "/tunnel" && req.method === "POST") {
          // A user's own tunnel: forwards the raw envelope; Telltale authenticates by the DSN in its header.
          const upstream = httpRequest(
            tunnelTarget,
            { method: "POST", headers: { "content-type": "application/x-sentry-envelope" } },
            (up) => {
              res.writeHead(up.statusCode ?? 502);
              up.pipe(res);
            },
          );
          req.pipe(upstream);
          return;
        }
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<!doctype html><html><head><script src="/sdk.js"></script></head><body><h1>test page</h1></body></html>');
      });
      await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
      pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    });

    afterAll(() => new Promise<void>((r) => page.close(() => r())));

    async function throwInBrowser(dsn: string, tunnel: string | null, message: string) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(pageUrl);
      const responses: number[] = [];
      tab.on("response", (r) => {
        if (r.request().method() === "POST") responses.push(r.status());
      });
      await tab.evaluate(
        ({ dsn, tunnel, message }) => {
          const Sentry = (
            window as unknown as { Sentry: { init(o: object): void; captureException(e: Error): void; flush(t: number): Promise<boolean> } }
          ).Sentry;
          Sentry.init({ dsn, ...(tunnel ? { tunnel } : {}), release: "web@3.1.0" });
          Sentry.captureException(new TypeError(message));
          return Sentry.flush(5000);
        },
        { dsn, tunnel, message },
      );
      await waitFor(async () => responses.length > 0, 10_000, "the SDK's POST");
      await context.close();
      return responses;
    }

    it("posts across origins with CORS; a new project keeps localhost events until its localhost filter is switched on", async () => {
      const p = await project("browser");
      expect(await throwInBrowser(p.dsn, null, "kept from localhost")).toSatisfy((r: number[]) => r.every((s) => s === 200));
      await queueDrained(store);
      const stored = await events(p.id);
      expect(stored.map((e) => e.title)).toEqual(["TypeError: kept from localhost"]);
      const data = JSON.parse(decodePayload(stored[0]!.data)) as { request: { url: string }; sdk: { name: string } };
      expect(data.request.url).toBe(pageUrl);
      expect(data.sdk.name).toBe("sentry.javascript.browser");

      await updateFilters({ ctx: testCtx(store), input: { projectId: p.id, changes: { localhost: true } } });
      expect(await throwInBrowser(p.dsn, null, "filtered once the filter is on")).toSatisfy((r: number[]) => r.every((s) => s === 200));
      await queueDrained(store);
      expect((await events(p.id)).map((e) => e.title)).toEqual(["TypeError: kept from localhost"]);
      expect(quantity(await outcomesOf(store, p.id), "error", "filtered", "localhost")).toBe(1);
    });

    it("sends through a same-origin tunnel, authenticated by the DSN in the envelope header", async () => {
      const p = await project("tunnelled");
      await updateFilters({ ctx: testCtx(store), input: { projectId: p.id, changes: { localhost: false } } });
      tunnelTarget = `${server.url}/api/${p.id}/envelope/`;
      expect(await throwInBrowser(p.dsn, "/tunnel", "through the tunnel")).toSatisfy((r: number[]) => r.every((s) => s === 200));
      await queueDrained(store);
      expect((await events(p.id)).map((e) => e.title)).toEqual(["TypeError: through the tunnel"]);
    });
  });

  it("makes @sentry/node back off errors after a 429 and keep sending spans", async () => {
    const p = await project("limited");
    await setProjectQuota({ ctx: testCtx(store), input: { projectId: p.id, quota: { category: "error", count: 2, windowSeconds: 3600 } } });
    await runNodeClient(p.dsn, "ratelimit");
    await queueDrained(store);
    // Refusals on the request path are counted in memory and written within a second.
    const outcomes = await waitFor(
      async () => {
        const rows = await outcomesOf(store, p.id);
        return quantity(rows, "error", "rate_limited") > 0 && rows;
      },
      10_000,
      "the rate-limited outcome",
    );
    // Two errors fit the quota; the third is answered 429 and from then on the SDK sends none:
    // the other five are dropped by the SDK itself and reported in its client report.
    expect(quantity(outcomes, "error", "accepted")).toBe(2);
    expect(quantity(outcomes, "error", "rate_limited")).toBe(1);
    expect(await events(p.id)).toHaveLength(2);
    // Spans are another category: all eight transactions arrived.
    const tx = await store.db.selectFrom("transactions").select("name").where("project_id", "=", p.id).execute();
    expect(tx).toHaveLength(8);
    const backedOff = quantity(outcomes, "error", "client_discard", "ratelimit_backoff");
    expect(backedOff === 0 || backedOff === 5).toBe(true);
  });
});
