import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import type { NormalizedEvent } from "../../src/core/normalize/types";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateFilters } from "../../src/core/projects/options";
import { decodePayload } from "../../src/core/storage/payload";
import { createToken } from "../../src/core/tokens/tokens";
import { launchBrowser } from "../support/browser";
import { browserSdkBundle } from "../support/browser-sdk";
import { sentryCli } from "../support/clients";
import { queueDrained } from "../support/ingest-db";
import { startServer, type TestServer } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const run = promisify(execFile);
const APP = join(import.meta.dirname, "..", "fixtures", "bundler-app");
const PLUGIN_RELEASE = "shop@3.0.0";
const PREFIX_RELEASE = "shop@4.0.0";
/**
 * The thrower's file as a person reads it: webpack writes `webpack:///./src/checkout.js`, shown
 * as esbuild's `src/checkout.js`; the plugin uploads it rewritten from the project root, `/src/checkout.js`.
 */
const ORIGINAL_FILE = /^\/?src\/checkout\.js$/;

/**
 * Builds test/fixtures/bundler-app with webpack 5 into `outDir`; `env` with SENTRY_URL adds
 * @sentry/webpack-plugin. Returns the bundle's file name and the origins the build called.
 */
async function webpackBuild(outDir: string, env: Record<string, string> = {}): Promise<{ js: string; origins: string[] }> {
  // cwd is the app, as in a real project: the plugin makes the maps' sources relative to it.
  const built = await run(process.execPath, [join(APP, "build.mjs"), outDir], {
    cwd: APP,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  const { files, origins } = JSON.parse(built.stdout.trim().split("\n").at(-1)!) as { files: string[]; origins: string[] };
  expect(files).toHaveLength(2);
  return { js: files.find((f) => f.endsWith(".js"))!, origins };
}

/**
 * Issue 13, "tests that must exist": a small app built and minified by webpack 5 in production
 * mode. (1) @sentry/webpack-plugin from npm, pointed at Telltale with `url`, uploads its maps
 * during the build (through the JavaScript `sentry` CLI it ships, not the sentry-cli binary);
 * (2) a build without debug ids, uploaded by sentry-cli with --release and --url-prefix. The
 * error thrown in headless Chromium and reported by @sentry/browser is stored with the original
 * file, line, function and source line in both cases.
 */
describe.each(DIALECTS)("webpack builds symbolicated in Chromium on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: TestServer;
  let browser: Browser;
  let appServer: Server;
  let appUrl = "";
  let dsn = "";
  let work = "";
  let token = "";
  let orgId = 0;
  let projectId = 0;
  const bundles = { plugin: "", prefix: "" };
  let pluginOrigins: string[] = [];

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    orgId = (await createOrganization({ ctx, input: { slug: "shop", owner: "dev@example.com" } })).id;
    const { project, key } = await createProject({ ctx, input: { org: "shop", slug: "web", platform: "javascript" } });
    projectId = project.id;
    await updateFilters({ ctx, input: { projectId, changes: { localhost: false } } });
    ({ token } = await createToken({ ctx, input: { user: "dev@example.com", name: "ci", scopes: ["project:releases", "org:read"] } }));
    server = await startServer({ ...store.env, TELLTALE_SELF_DSN: "off" });
    dsn = buildDsn(server.url, key.public_key, project.id);
    work = mkdtempSync(join(tmpdir(), "telltale-e2e-webpack-"));

    const pluginBuild = await webpackBuild(join(work, "plugin", "static"), {
      SENTRY_URL: server.url,
      SENTRY_ORG: "shop",
      SENTRY_PROJECT: "web",
      SENTRY_AUTH_TOKEN: token,
      RELEASE: PLUGIN_RELEASE,
      // The plugin's CLI remembers each organization's URL in $SENTRY_CONFIG_DIR/cli.db: a fresh
      // one per run, or a later run for `shop` on another port would call this one's.
      SENTRY_CONFIG_DIR: join(work, "sentry-config"),
      // `telemetry: false` stops the plugin's own reports; this stops those of the CLI inside it,
      // which otherwise go to sentry.io whatever `url` says.
      SENTRY_CLI_NO_TELEMETRY: "1",
    });
    bundles.plugin = pluginBuild.js;
    pluginOrigins = pluginBuild.origins;
    bundles.prefix = (await webpackBuild(join(work, "static"))).js;
    const uploaded = await sentryCli(server.url, token, [
      ...["sourcemaps", "upload", "--org", "shop", "--project", "web"],
      ...["--release", PREFIX_RELEASE, "--url-prefix", "~/static", join(work, "static")],
    ]);
    expect(uploaded.code, uploaded.out).toBe(0);

    const sdk = await browserSdkBundle();
    appServer = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (path === "/sdk.js") return res.writeHead(200, { "content-type": "text/javascript" }).end(sdk);
      const file = /^\/((?:plugin\/)?static)\/(app\.[0-9a-f]+\.js(?:\.map)?)$/.exec(path);
      if (file) {
        const dir = join(work, ...file[1]!.split("/"));
        if (!readdirSync(dir).includes(file[2]!)) return res.writeHead(404).end();
        return res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(join(dir, file[2]!)));
      }
      const script = path.startsWith("/plugin/") ? `/plugin/static/${bundles.plugin}` : `/static/${bundles.prefix}`;
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><html><head><script src="/sdk.js"></script><script src="${script}"></script></head>` +
            '<body><input id="card"><button id="pay" onclick="runCheckout()">Pay</button><p id="result"></p></body></html>',
        );
    });
    await new Promise<void>((r) => appServer.listen(0, "127.0.0.1", r));
    appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    if (appServer) await new Promise((r) => appServer.close(r));
    await server?.stop();
    await store?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Opens the page, starts @sentry/browser (with `release` if given), pays with a short card number and reads back the stored event. */
  async function payAndReadEvent(path: string, release: string | undefined, expectRelease: string): Promise<NormalizedEvent> {
    const tab = await browser.newPage();
    await tab.goto(`${appUrl}${path}`);
    await tab.evaluate(
      ({ dsn, release }) =>
        (window as unknown as { Sentry: { init(o: object): void } }).Sentry.init({ dsn, ...(release ? { release } : {}) }),
      { dsn, release },
    );
    await tab.fill("#card", "12");
    // Clicking runs the minified code from the page's own handler; the SDK's global handler reports it.
    await tab.click("#pay");
    await tab.evaluate(() => (window as unknown as { Sentry: { flush(t: number): Promise<boolean> } }).Sentry.flush(5000));
    await tab.close();
    await queueDrained(store);
    const row = await store.db
      .selectFrom("events")
      .select(["data"])
      .where("project_id", "=", projectId)
      .where("release", "=", expectRelease)
      .executeTakeFirstOrThrow();
    return JSON.parse(decodePayload(row.data)) as NormalizedEvent;
  }

  /** The frame that threw: frames are oldest first, so the last in-app one. */
  const topInApp = (event: NormalizedEvent) => event.exception!.values[0]!.stacktrace!.frames.filter((f) => f.in_app).at(-1)!;

  it("@sentry/webpack-plugin uploads during the build, and the plugin build's error has its original frame", async () => {
    // The plugin's upload reached Telltale: an artifact bundle of this project holds the
    // minified file and its map under the debug id the plugin put in the bundle.
    const debugId = /sentry-dbid-([0-9a-f-]{36})/.exec(readFileSync(join(work, "plugin", "static", bundles.plugin), "utf8"))?.[1];
    expect(debugId).toBeDefined();
    const found = await ctx.artifacts.byDebugId(projectId, debugId!);
    expect(found.minified?.type).toBe("minified_source");
    expect(found.sourceMap?.type).toBe("source_map");
    expect((await ctx.artifacts.bundles(orgId)).find((b) => b.release === PLUGIN_RELEASE)?.projectIds).toEqual([projectId]);
    // …and nothing else: the build sent no request anywhere but Telltale.
    expect(pluginOrigins).toEqual([server.url]);

    // No release in Sentry.init: the one the plugin injected into the bundle names the event.
    const event = await payAndReadEvent("/plugin/", undefined, PLUGIN_RELEASE);
    expect(event.errors ?? []).toEqual([]);
    const frame = topInApp(event);
    expect(frame).toMatchObject({ lineno: 3, function: "assertCardNumber" });
    expect(frame.filename, frame.abs_path).toMatch(ORIGINAL_FILE);
    expect(frame.context_line?.trim()).toBe('throw new Error("payment declined");');
    const raw = event.exception!.values[0]!.raw_stacktrace!.frames.at(-1)!;
    expect(raw.abs_path).toBe(`${appUrl}/plugin/static/${bundles.plugin}`);
    expect(raw.lineno).not.toBe(3);
  });

  it("a webpack build without debug ids, uploaded with --release and --url-prefix, is symbolicated by release and path", async () => {
    expect(readFileSync(join(work, "static", bundles.prefix), "utf8")).not.toContain("debugId");
    const event = await payAndReadEvent("/", PREFIX_RELEASE, PREFIX_RELEASE);
    expect(event.debug_meta?.images ?? []).toEqual([]);
    expect(event.errors ?? []).toEqual([]);
    const frame = topInApp(event);
    expect(frame).toMatchObject({ lineno: 3, function: "assertCardNumber" });
    expect(frame.filename, frame.abs_path).toMatch(ORIGINAL_FILE);
    expect(frame.context_line?.trim()).toBe('throw new Error("payment declined");');
  });
});
