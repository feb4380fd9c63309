import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { setLogLevel } from "../../src/server/log";
import { startFront, type TestFront } from "../support/front";
import { projectGuide, storedIssues, writeGuide } from "../support/guides";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const run = promisify(execFile);

/** Debian's golang-go; .ci/run installs it with golang-github-getsentry-sentry-go-dev, so in CI this test runs. */
function goVersion(): string | null {
  try {
    return execFileSync("go", ["version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}
const GO = goVersion();
if (!GO) console.warn("guide-go.test.ts skipped: `go` is not on PATH (apt-get install golang-go golang-github-getsentry-sentry-go-dev)");

/**
 * Offline, as the machine allows: GOPATH mode over Debian's /usr/share/gocode (where
 * golang-github-getsentry-sentry-go-dev puts sentry-go 0.11), no module proxy, a cache of its own.
 */
function goEnv(cache: string): NodeJS.ProcessEnv {
  return { ...process.env, GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOFLAGS: "", GOPROXY: "off", GOCACHE: cache, CGO_ENABLED: "0" };
}

describe.skipIf(!GO).each(DIALECTS)(
  `the Go guide, built and run as written with Debian's sentry-go (${GO ?? "go absent: skipped"}), on %s`,
  (dialect) => {
    let store: TestStore;
    let ctx: Ctx;
    let front: TestFront;
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

    it("stores the guide's first error as an issue with the program's Go stack", async () => {
      const { projectId, guide } = await projectGuide(ctx, front.base, "guides", "go", "go");
      // The page says "verified here with sentry-go 0.11": this test is what makes that true.
      expect([guide.verified, guide.verifiedWith]).toEqual(["run", "sentry-go 0.11"]);
      const dir = writeGuide(guide);
      const cache = mkdtempSync(join(tmpdir(), "telltale-gocache-"));
      dirs.push(dir, cache);
      const env = goEnv(cache);
      await run("go", ["build", "-o", join(dir, "app"), join(dir, "main.go")], { cwd: dir, env, timeout: 120_000 });
      const { stdout, stderr } = await run(join(dir, "app"), [], { cwd: dir, env, timeout: 30_000 });
      expect(stdout + stderr).toBe("");

      const issues = await storedIssues(store, ctx, projectId);
      expect(issues).toHaveLength(1);
      const [issue] = issues;
      expect(issue).toMatchObject({
        title: "*errors.errorString: My first Telltale error",
        level: "error",
        times: 1,
        platform: "go",
        exceptionType: "*errors.errorString",
      });
      // The innermost frame is the guide's main(), in the program's own package; no SDK frames.
      expect(issue!.frames.at(-1)).toMatchObject({ function: "main", module: "main", in_app: true });
      expect(issue!.frames.every((f) => !f.module?.includes("getsentry"))).toBe(true);
    }, 180_000);
  },
);
