// Small helpers shared by the benchmark scripts: logging, timing, percentiles, a seeded
// random generator, process statistics from /proc, and child processes that always end.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { performance } from "node:perf_hooks";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "node:timers";

export { sleep };

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CACHE = join(ROOT, ".bench");

const started = Date.now();

/** Progress goes to stderr so that stdout holds only the result table. */
export function log(...parts) {
  const t = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[bench ${t}s] ${parts.join(" ")}\n`);
}

/** mulberry32: a small seeded generator, so the corpus is the same on every machine. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    /** Log-uniform between lo and hi: many small values, a few large ones. */
    logUniform: (lo, hi) => Math.round(Math.exp(Math.log(lo) + next() * (Math.log(hi) - Math.log(lo)))),
  };
}

/** Percentile of an ascending-sorted array (nearest rank). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const TICKS = 100; // getconf CLK_TCK on Linux/x86-64

/** User + system CPU seconds from a /proc `stat` file (a process's, or one of its threads'). */
function statCpuSeconds(path) {
  const stat = readFileSync(path, "utf8");
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** CPU seconds (user + system) of one thread of a process; its main thread's id is the pid. */
export const threadCpuSeconds = (pid, tid = pid) => statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);

/** CPU seconds (user + system, all threads) and memory of a process, from /proc. */
export function procStats(pid) {
  try {
    const cpu = statCpuSeconds(`/proc/${pid}/stat`);
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { cpu, rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
export function machineBusySeconds() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait.
    const busy = fields.slice(0, 8).reduce((s, v, i) => (i === 3 || i === 4 ? s : s + v), 0);
    return busy / TICKS;
  } catch {
    return NaN;
  }
}

/** CPU seconds used so far by all PostgreSQL server processes on this machine. */
export function postgresCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Samples a process every `everyMs` while a phase runs: CPU used, the largest RSS seen, and
 * what the rest of the machine used meanwhile — this generator, PostgreSQL (when asked) and
 * everything else (other people's work on a shared machine makes figures noisy).
 */
export function sampler(pid, everyMs = 250, { postgres = false } = {}) {
  const first = procStats(pid);
  const t0 = performance.now();
  const busy0 = machineBusySeconds();
  const self0 = process.cpuUsage();
  const pg0 = postgres ? postgresCpuSeconds() : 0;
  let maxRss = first?.rssMb ?? 0;
  const timer = setInterval(() => {
    const s = procStats(pid);
    if (s && s.rssMb > maxRss) maxRss = s.rssMb;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const last = procStats(pid);
      if (last && last.rssMb > maxRss) maxRss = last.rssMb;
      const seconds = (performance.now() - t0) / 1000;
      const cpu = first && last ? last.cpu - first.cpu : NaN;
      const self = process.cpuUsage(self0);
      const generator = (self.user + self.system) / 1e6;
      const pgCpu = postgres ? postgresCpuSeconds() - pg0 : 0;
      const others = machineBusySeconds() - busy0 - cpu - generator - pgCpu;
      return {
        seconds,
        cpuSeconds: cpu,
        cores: cpu / seconds,
        generatorCores: generator / seconds,
        postgresCores: postgres ? pgCpu / seconds : NaN,
        otherCores: Math.max(0, others / seconds),
        maxRssMb: maxRss,
        hwmMb: last?.hwmMb ?? NaN,
      };
    },
  };
}

/**
 * Runs a command to completion with a time limit; rejects with its output when it fails.
 * Used for the CLI (`bin/telltale.mjs`), the build, and the SDK capture scripts.
 */
export function run(cmd, args, { env = {}, timeoutMs = 120_000, cwd = ROOT, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    if (input) child.stdin.end(input);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} ${args.join(" ")} timed out after ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout: out, stderr: err });
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}\n${err || out}`));
    });
  });
}

/** Ends a child we started: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child, graceMs = 8000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then returns null). */
export async function until(check, { timeoutMs, everyMs = 50 }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(everyMs);
  }
}

export const fileSize = (path) => (existsSync(path) ? statSync(path).size : 0);

/**
 * Imports a module written as TypeScript source (`export … from "./src/…"` lines, resolved from the
 * repository's root), bundled by esbuild into a temporary file: how the micro-benches reach the core
 * without a build of their own.
 */
export async function importTs(contents, name) {
  const dir = mkdtempSync(join(tmpdir(), `telltale-${name}-bench-`));
  const out = join(dir, `${name}.mjs`);
  try {
    await build({
      stdin: { contents, resolveDir: ROOT, loader: "ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: out,
      logLevel: "silent",
    });
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
