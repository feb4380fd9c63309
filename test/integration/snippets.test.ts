import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build, transform } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { snippets } from "../../src/core/projects/snippets";
import { envelopeLimits } from "../../src/server/ingest/ingest-runtime";
import { setLogLevel } from "../../src/server/log";
import { launchBrowser } from "../support/browser";
import { writeGuide } from "../support/guides";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { startFront, type TestFront } from "../support/front";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { decodePayload } from "../../src/core/storage/payload";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");

/** Runs a program that is meant to die of its first error; the SDK reports it on the way out. */
async function runToFailure(file: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const outcome = await run(file, args, { env: { ...process.env, ...env }, timeout: 60_000 }).then(
    () => "exit 0",
    (error: { code?: number; stderr?: string }) => `exit ${error.code}: ${error.stderr ?? ""}`,
  );
  return outcome;
}

/** Bundles the browser guide's main.js as written (its bare import resolved from this repository), as an app's bundler would. */
async function bundleGuide(code: string): Promise<string> {
  const result = await build({
    stdin: { contents: code, resolveDir: ROOT, loader: "js" },
    bundle: true,
    format: "iife",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Serves one HTML page with the bundle on its own origin (another port than the DSN's). */
async function servePage(script: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === "/main.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><title>app</title><script src="/main.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe.each(DIALECTS)("the browser, Node and Python guides, run as written, on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  const limits = envelopeLimits(parseSettings({}).ingest);
  const dirs: string[] = [];

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    front = await startFront(ctx);
    await createOrganization({ ctx, input: { slug: "guides" } });
  });

  afterAll(async () => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    await front?.close();
    await store?.cleanup();
  });

  async function guideFor(platform: "javascript" | "node" | "python" | "javascript-nextjs", path: string = platform) {
    const { project, key } = await createProject({ ctx, input: { org: "guides", slug: platform, platform } });
    const guide = snippets(buildDsn(front.base, key.public_key, project.id)).find((s) => s.path === path)!;
    // The page tells the reader this guide was run as written: this test is what makes that true.
    expect(guide.verified).toBe("run");
    const dir = writeGuide(guide);
    dirs.push(dir);
    return { projectId: project.id, dir, guide };
  }

  async function storedErrors(projectId: number) {
    for (;;) if ((await digestBatch(ctx, { batchSize: 50, limits })) === 0) break;
    const rows = await store.db.selectFrom("events").select(["title", "level", "data"]).where("project_id", "=", projectId).execute();
    return rows.map((r) => ({
      title: r.title,
      level: r.level,
      platform: (JSON.parse(decodePayload(r.data)) as { platform?: string }).platform,
    }));
  }

  it("delivers the browser guide's first error through @sentry/browser in Chromium", async () => {
    const { projectId, guide } = await guideFor("javascript");
    const main = guide.files.find((f) => f.name === "main.js")!;
    const page = await servePage(await bundleGuide(main.code));
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const tab = await browser.newPage();
      await tab.goto(page.url, { waitUntil: "load" });
      const errors = async () => {
        const rows = await storedErrors(projectId);
        return rows.length > 0 ? rows : null;
      };
      await expect
        .poll(errors, { timeout: 20_000, interval: 250 })
        .toEqual([{ title: "Error: My first Telltale error", level: "error", platform: "javascript" }]);
    } finally {
      await browser?.close();
      page.server.closeAllConnections();
      await new Promise<void>((resolve) => page.server.close(() => resolve()));
    }
  }, 60_000);

  it("forwards the browser's envelope to the project through the Next.js guide's tunnel route, as written", async () => {
    const { projectId, guide } = await guideFor("javascript-nextjs", "javascript/nextjs");
    const route = guide.files.find((f) => f.name === "app/monitoring/route.ts")!;
    // The route is TypeScript for Next.js; stripped of its types it is the handler Next would call.
    const handler = (await transform(route.code, { loader: "ts", format: "esm" })).code;
    const caller = `${handler}
const response = await POST(new Request("http://app.test/monitoring", { method: "POST", body: process.env.ENVELOPE }));
console.log(response.status);`;
    const dir = mkdtempSync(join(tmpdir(), "telltale-guide-nextjs-"));
    dirs.push(dir);
    writeFileSync(join(dir, "route.mjs"), caller);
    const envelope = errorEnvelope(newEventId(), "through the tunnel").toString("utf8");
    const { stdout } = await run(process.execPath, [join(dir, "route.mjs")], {
      env: { ...process.env, ENVELOPE: envelope },
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe("200");
    expect((await storedErrors(projectId)).map((e) => e.title)).toEqual(["through the tunnel"]);
  });

  it("delivers the Node guide's first error through @sentry/node", async () => {
    const { projectId, dir } = await guideFor("node");
    // The guide's files sit outside this repository: NODE_PATH lets them find its @sentry/node, as `npm install` would.
    const result = await runToFailure(process.execPath, [join(dir, "app.js")], { NODE_PATH: join(ROOT, "node_modules") });
    expect(result).toMatch(/^exit 1: .*My first Telltale error/s);
    // An uncaught exception is reported as fatal by the SDK's onUncaughtExceptionIntegration.
    expect(await storedErrors(projectId)).toEqual([{ title: "Error: My first Telltale error", level: "fatal", platform: "node" }]);
  });

  it("delivers the Python guide's first error through Debian's sentry-python", async () => {
    const { projectId, dir } = await guideFor("python");
    // Debian's sentry_sdk imports only under /usr/bin/python3 (test/support/clients.ts).
    const result = await runToFailure("/usr/bin/python3", [join(dir, "app.py")]);
    expect(result).toMatch(/^exit 1: .*ZeroDivisionError/s);
    expect(await storedErrors(projectId)).toEqual([{ title: "ZeroDivisionError: division by zero", level: "error", platform: "python" }]);
  });
});
