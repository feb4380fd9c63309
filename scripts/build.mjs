// Builds what `npm start` and the CLI run: the server bundle (esbuild) and the Next.js app.
// "Builds if needed": a stamp of the sources' contents decides whether a step can be skipped.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_INPUTS = ["src", "package-lock.json", "scripts/build.mjs"];
const APP_INPUTS = [
  ...SERVER_INPUTS,
  "app",
  "public",
  "next.config.ts",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "tsconfig.json",
];

function files(path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => (name.endsWith(".test.ts") || name.endsWith(".test.tsx") ? [] : files(join(path, name))));
}

function stamp(inputs) {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(files))
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(root, file)))
      .update("\0");
  return hash.digest("hex");
}

const SERVER_STAMP = join(root, "dist", ".stamp");
const APP_STAMP = join(root, ".next", "telltale-stamp");
const upToDate = (file, value) => existsSync(file) && readFileSync(file, "utf8") === value;

export async function buildServer({ force = false } = {}) {
  const value = stamp(SERVER_INPUTS);
  if (!force && upToDate(SERVER_STAMP, value)) return false;
  const esbuild = await import("esbuild");
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: {
      cli: "src/cli/entry.ts",
      // Loaded by dist/cli.js once `serve` has started the UI worker (src/server/ui-prestart.ts).
      "cli-main": "src/cli/main.ts",
      "next-worker": "src/server/next-worker.ts",
      "digest-worker": "src/server/digest-worker.ts",
      "sourcemap-thread": "src/server/sourcemap-thread.ts",
      "settle-thread": "src/server/settle-thread.ts",
    },
    outdir: "dist",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  mkdirSync(dirname(SERVER_STAMP), { recursive: true });
  writeFileSync(SERVER_STAMP, value);
  return true;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs `node args…` to its end and resolves with its exit code. Signals to this process go to
 * the child too, and a child killed by a signal takes this process with it: `kill` on a first
 * `npm start` (a build of a minute or more) must not leave `next build` running on its own.
 */
function runForwardingSignals(args, env, stdio = "inherit") {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio, env });
    let received = null;
    const forward = (signal) => {
      received = signal;
      child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      // Stopped on purpose (next build exits 143 on SIGTERM): end as the signal would, not with a stack.
      if (received) process.exit(128 + constants.signals[received]);
      if (signal) process.kill(process.pid, signal);
      else resolvePromise(code);
    });
  });
}

/**
 * sentry-cli's launcher (@sentry/cli, a devDependency), or null when it is not installed
 * (`npm ci --omit=dev`): the build then goes on without debug ids and says so
 * (docs/decisions/0015-own-source-maps.md).
 */
function sentryCli() {
  const path = join(root, "node_modules/@sentry/cli/bin/sentry-cli");
  return existsSync(path) ? path : null;
}

/**
 * Gives every browser chunk and its map one debug id (`sentry-cli sourcemaps inject`): the SDK
 * reports it with each frame, and the server finds the map by it when it registers the build's
 * maps for the internal project (src/server/own-maps.ts). Offline: it only rewrites local files.
 * Next 16 builds with Turbopack, where @sentry/nextjs's build-time upload does nothing.
 */
async function injectDebugIds(cli) {
  const env = { ...process.env };
  // Nothing here talks to a server; a configured one must not be asked either.
  for (const name of ["SENTRY_URL", "SENTRY_AUTH_TOKEN", "SENTRY_ORG", "SENTRY_PROJECT", "SENTRY_DSN"]) delete env[name];
  // Its list of every file it changed goes nowhere; its errors still show.
  const status = await runForwardingSignals([cli, "sourcemaps", "inject", join(root, ".next", "static")], env, [
    "ignore",
    "ignore",
    "inherit",
  ]);
  if (status !== 0) throw new Error(`sentry-cli sourcemaps inject failed (exit ${status})`);
  const chunks = files(join(".next", "static")).filter((f) => f.endsWith(".js"));
  const tails = chunks.map((f) => readFileSync(join(root, f), "utf8").slice(-300));
  const mapped = tails.filter((t) => /\/\/# sourceMappingURL=\S+\s+\/\/# debugId=[0-9a-f-]+\s*$/.test(t)).length;
  console.log(`sentry-cli sourcemaps inject: ${mapped} of ${chunks.length} browser scripts and their maps carry a debug id`);
}

export async function buildApp({ force = false } = {}) {
  const cli = sentryCli();
  // Whether the chunks carry debug ids is part of what was built: installing sentry-cli later rebuilds.
  const value = `${stamp(APP_INPUTS)}:${cli ? "debug-ids" : "no-debug-ids"}`;
  if (!force && upToDate(APP_STAMP, value)) return false;
  const status = await runForwardingSignals([join(root, "node_modules/next/dist/bin/next"), "build"], {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  if (cli) await injectDebugIds(cli);
  else
    console.log(
      "sentry-cli is not installed (npm ci --omit=dev?): the browser chunks get no debug ids, so Telltale's own browser errors stay minified",
    );
  writeFileSync(APP_STAMP, value);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = !process.argv.includes("--if-needed");
  await buildServer({ force });
  await buildApp({ force });
}
