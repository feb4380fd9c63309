import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentryCli } from "../support/clients";
import { openCliProject, type CliProject } from "../support/cli-project";
import { DIALECTS } from "../support/stores";

const run = promisify(execFile);
const APP = join(import.meta.dirname, "..", "fixtures", "bundler-app");

/**
 * What the README says of @sentry/nextjs 11 and Turbopack: withSentryConfig, pointed at Telltale
 * with `sentryUrl`, uploads from Next's runAfterProductionCompile hook after the build, and deletes
 * the browser maps it turned on. The `.next` directory is made the way Turbopack leaves it for
 * that hook (minified chunks with native debug ids, here written by esbuild and sentry-cli inject);
 * the hook is the one withSentryConfig returns, run as `next build` runs it.
 */
describe.each(DIALECTS)("@sentry/nextjs's after-compile upload on %s", (dialect) => {
  let bench: CliProject;

  beforeAll(async () => {
    bench = await openCliProject(dialect);
  });
  afterAll(() => bench.close());

  it("uploads the client and server maps of a Turbopack build to Telltale only, then deletes the browser maps", async () => {
    const dist = join(bench.work, ".next");
    const client = join(dist, "static", "chunks", "app-page.js");
    for (const outfile of [client, join(dist, "server", "app", "page.js")]) {
      buildSync({ entryPoints: [join(APP, "src", "main.js")], bundle: true, minify: true, sourcemap: true, outfile, logLevel: "silent" });
    }
    const injected = await sentryCli(null, "", ["sourcemaps", "inject", dist]);
    expect(injected.code, injected.out).toBe(0);
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(readFileSync(client, "utf8"))?.[1];
    expect(debugId).toBeDefined();

    const { stdout } = await run(process.execPath, [join(APP, "next-after-compile.mjs"), dist], {
      cwd: APP,
      timeout: 60_000,
      env: {
        ...process.env,
        SENTRY_URL: bench.api.base,
        SENTRY_ORG: "acme",
        SENTRY_PROJECT: "web",
        SENTRY_AUTH_TOKEN: bench.token,
        RELEASE: "next@1.0.0",
        SENTRY_CLI_NO_TELEMETRY: "1",
        SENTRY_CONFIG_DIR: join(bench.work, "sentry-config"),
      },
    });
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as {
      productionBrowserSourceMaps: boolean;
      turbopackDebugIds: boolean;
      origins: string[];
    };
    expect(report).toEqual({ productionBrowserSourceMaps: true, turbopackDebugIds: true, origins: [bench.api.base] });

    const found = await bench.ctx.artifacts.byDebugId(bench.projectId, debugId!);
    expect(found.minified?.type).toBe("minified_source");
    expect(found.sourceMap?.type).toBe("source_map");
    const bundles = await bench.ctx.artifacts.bundles(bench.orgId);
    expect(bundles.map((b) => b.release)).toEqual(bundles.map(() => "next@1.0.0"));
    expect(bundles.reduce((n, b) => n + b.fileCount, 0)).toBe(4);
    expect(existsSync(`${client}.map`)).toBe(false);
  });
});
