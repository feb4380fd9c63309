import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { snippets, type Snippet } from "../../src/core/projects/snippets";
import type { Dialect } from "../../src/db/connect";
import { setLogLevel } from "../../src/server/log";
import { launchBrowser } from "../support/browser";
import { startFront } from "../support/front";
import { storedIssues, writeGuide, type StoredIssue } from "../support/guides";
import { freePort } from "../support/server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURE = join(ROOT, "test", "fixtures", "nextjs-guide-app");
const NEXT_BIN = join(ROOT, "node_modules", "next", "dist", "bin", "next");
/**
 * The app is built once with one DSN in it; each database's front then listens on the DSN's
 * port in turn, with a project of the same id whose key is this one.
 */
const PUBLIC_KEY = "9e1b6f0c2d4a48e7b5c3a1f0e2d4c6b8";

interface Project {
  store: TestStore;
  ctx: Ctx;
  projectId: number;
}

/** A fresh database with the `guides/nextjs` project, its DSN key set to PUBLIC_KEY. */
async function nextjsProject(dialect: Dialect): Promise<Project> {
  const store = await openTestStore(dialect);
  const ctx = testCtx(store);
  await createOrganization({ ctx, input: { slug: "guides" } });
  const { project } = await createProject({ ctx, input: { org: "guides", slug: "nextjs", platform: "javascript-nextjs" } });
  await store.db.updateTable("project_keys").set({ public_key: PUBLIC_KEY }).where("project_id", "=", project.id).execute();
  return { store, ctx, projectId: project.id };
}

/** Environment for `next build` / `next start`: production, offline, not the test runner's NODE_ENV. */
function nextEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" };
}

describe("the Next.js guide's files, built with `next build` and served by `next start` as written", () => {
  let first: Project;
  let dsnPort: number;
  let dsn: string;
  let guide: Snippet;
  let appDir: string;
  let appUrl: string;
  let next: ChildProcess | undefined;
  let nextOutput = "";
  let browser: Browser;
  const timings: string[] = [];
  /**
   * Closed last: a closing page still flushes envelopes through the tunnel, and a request the
   * front took before it closed must not find its database gone.
   */
  const stores: TestStore[] = [];

  beforeAll(async () => {
    setLogLevel("warn");
    first = await nextjsProject(DIALECTS[0]!);
    stores.push(first.store);
    dsnPort = await freePort();
    dsn = buildDsn(`http://127.0.0.1:${dsnPort}`, PUBLIC_KEY, first.projectId);
    guide = snippets(dsn).find((s) => s.path === "javascript/nextjs")!;

    // The fixture app (a layout, a page that throws on click, a route that throws), then the
    // guide's files exactly as the page shows them, then this repository's packages. It lives in
    // this repository (test-results/, ignored by git): Turbopack compiles nothing outside its
    // workspace root, the nearest lockfile's directory, so an app in /tmp could not reach the
    // linked node_modules. An app left by a run that died before its clean-up goes first.
    mkdirSync(join(ROOT, "test-results"), { recursive: true });
    for (const stale of readdirSync(join(ROOT, "test-results")).filter((n) => n.startsWith("guide-nextjs-app-"))) {
      rmSync(join(ROOT, "test-results", stale), { recursive: true, force: true });
    }
    appDir = mkdtempSync(join(ROOT, "test-results", "guide-nextjs-app-"));
    cpSync(FIXTURE, appDir, { recursive: true });
    writeGuide(guide, appDir);
    symlinkSync(join(ROOT, "node_modules"), join(appDir, "node_modules"), "dir");

    let started = Date.now();
    await run(process.execPath, [NEXT_BIN, "build"], { cwd: appDir, env: nextEnv(), timeout: 280_000, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`next build failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
      },
    );
    timings.push(`next build ${Date.now() - started} ms`);

    started = Date.now();
    const appPort = await freePort();
    appUrl = `http://127.0.0.1:${appPort}`;
    next = spawn(process.execPath, [NEXT_BIN, "start", "--port", String(appPort), "--hostname", "127.0.0.1"], {
      cwd: appDir,
      env: nextEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    next.stdout?.on("data", (d: Buffer) => (nextOutput += d.toString()));
    next.stderr?.on("data", (d: Buffer) => (nextOutput += d.toString()));
    await waitFor(
      async () => {
        if (next?.exitCode !== null) throw new Error(`next start exited:\n${nextOutput}`);
        return fetch(appUrl).then(
          (r) => r.ok,
          () => false,
        );
      },
      60_000,
      "next start to answer",
    );
    timings.push(`next start ${Date.now() - started} ms`);
    browser = await launchBrowser();
  }, 360_000);

  afterAll(async () => {
    console.info(`guide-nextjs: ${timings.join(", ")}`);
    await browser?.close();
    if (next && next.exitCode === null) {
      const exited = new Promise((resolve) => next!.once("exit", resolve));
      next.kill("SIGTERM");
      await exited;
    }
    if (appDir) rmSync(appDir, { recursive: true, force: true });
    for (const store of stores) await store.cleanup();
  });

  it("shows next.config with withSentryConfig, client and server init with the DSN, and a tunnel (not tunnelRoute)", () => {
    // The page tells the reader this guide was run as written: the tests below make that true.
    expect(guide.verified).toBe("run");
    expect(guide.files.map((f) => f.name)).toEqual([
      "next.config.ts",
      "instrumentation-client.ts",
      "instrumentation.ts",
      "app/monitoring/route.ts",
    ]);
    const all = guide.files.map((f) => f.code).join("\n");
    expect(all).toContain("withSentryConfig(");
    expect(all).toContain('tunnel: "/monitoring"');
    expect(all).not.toContain("tunnelRoute");
    expect(guide.files.filter((f) => f.code.includes(JSON.stringify(dsn))).map((f) => f.name)).toEqual([
      "instrumentation-client.ts",
      "instrumentation.ts",
    ]);
  });

  it.each(DIALECTS)(
    "delivers a client error (through the tunnel route) and a server error (through onRequestError) as issues, on %s",
    async (dialect) => {
      const project = dialect === DIALECTS[0] ? first : await nextjsProject(dialect);
      if (project !== first) stores.push(project.store);
      // Same DSN for every database: the app was built with it.
      expect(project.projectId).toBe(first.projectId);
      const front = await startFront(project.ctx, {}, dsnPort);
      const page = await browser.newPage();
      const tunnelled: number[] = [];
      page.on("response", (r) => {
        if (new URL(r.url()).pathname === "/monitoring") tunnelled.push(r.status());
      });
      try {
        await page.goto(appUrl, { waitUntil: "load" });
        await page.waitForSelector("main[data-ready=yes]");
        await page.click("button");
        const server = await fetch(`${appUrl}/api/boom`);
        expect(server.status).toBe(500);

        const issues = await waitFor(
          async () => {
            const all = await storedIssues(project.store, project.ctx, project.projectId);
            return all.length >= 2 ? all : null;
          },
          30_000,
          `both errors as issues (next start said:\n${nextOutput.slice(-2000)})`,
        );
        const byTitle = (title: string): StoredIssue | undefined => issues.find((i) => i.title === title);
        expect(issues.map((i) => i.title).sort()).toEqual(["Error: Guide app: client error", "Error: Guide app: server error"]);
        expect(byTitle("Error: Guide app: client error")).toMatchObject({ platform: "javascript", exceptionType: "Error" });
        expect(byTitle("Error: Guide app: server error")).toMatchObject({ platform: "node", exceptionType: "Error" });
        expect(byTitle("Error: Guide app: server error")!.frames.length).toBeGreaterThan(0);
        expect(byTitle("Error: Guide app: client error")!.frames.length).toBeGreaterThan(0);
        // The browser's envelopes went to the app's own origin, and the route answered what Telltale did.
        expect(tunnelled.length).toBeGreaterThan(0);
        expect(tunnelled.every((s) => s === 200)).toBe(true);
      } finally {
        await page.close();
        await front.close();
      }
    },
    90_000,
  );
});
