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
      "next-worker": "src/server/next-worker.ts",
      "digest-worker": "src/server/digest-worker.ts",
      "sourcemap-thread": "src/server/sourcemap-thread.ts",
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
function runForwardingSignals(args, env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });
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

export async function buildApp({ force = false } = {}) {
  const value = stamp(APP_INPUTS);
  if (!force && upToDate(APP_STAMP, value)) return false;
  const status = await runForwardingSignals([join(root, "node_modules/next/dist/bin/next"), "build"], {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
  });
  if (status !== 0) throw new Error(`next build failed (exit ${status})`);
  writeFileSync(APP_STAMP, value);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const force = !process.argv.includes("--if-needed");
  await buildServer({ force });
  await buildApp({ force });
}
