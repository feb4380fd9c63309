import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../support/server";
import { waitFor } from "../support/wait";
import { MALLOC_ENV, YOUNG_GENERATION_MB } from "../../src/server/thread-memory";

const ROOT = join(import.meta.dirname, "..", "..");

interface Started {
  npm: ChildProcess;
  output: () => string;
  /** The node process serving (scripts/start.mjs), found by its parent. */
  server: number;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `npm start` as a newcomer runs it, until the web UI answers. */
async function npmStart(dir: string): Promise<Started> {
  const port = await freePort();
  const npm = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), TELLTALE_HOST: "127.0.0.1", TELLTALE_DATA_DIR: dir, TELLTALE_SELF_DSN: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  npm.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  npm.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  await waitFor(async () => output.includes("web UI ready"), 60_000, "the web UI");
  const listening = await fetch(`http://127.0.0.1:${port}/login`);
  expect(listening.status).toBe(200);
  return { npm, output: () => output, server: serverPid(npm.pid ?? 0) };
}

/** The descendant of npm running scripts/start.mjs (npm runs it with `exec`, so its child). */
function serverPid(npmPid: number): number {
  const lines = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).split("\n");
  const byParent = (ppid: number) => lines.map((l) => l.trim().split(/\s+/)).filter((f) => Number(f[1]) === ppid);
  const queue = [npmPid];
  while (queue.length) {
    for (const f of byParent(queue.shift()!)) {
      if (f.slice(2).join(" ").includes("scripts/start.mjs")) return Number(f[0]);
      queue.push(Number(f[0]));
    }
  }
  throw new Error("no scripts/start.mjs under npm");
}

describe("npm start, stopped", () => {
  const dirs: string[] = [];
  const started: Started[] = [];
  afterEach(() => {
    for (const s of started.splice(0)) if (s.server && alive(s.server)) process.kill(s.server, "SIGKILL");
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "telltale-lifecycle-"));
    dirs.push(d);
    return d;
  };

  it("by SIGTERM to npm: logs the shutdown and leaves no server behind", async () => {
    const s = await npmStart(dir());
    started.push(s);
    // The main thread's young generation is kept as small as the workers' by a flag only a command
    // line can give: three semi-spaces make a young generation (decision 0032).
    expect(readFileSync(`/proc/${s.server}/cmdline`, "utf8").split("\0")).toContain(`--max-semi-space-size=${YOUNG_GENERATION_MB / 3}`);
    // And glibc's malloc settings, which only the environment at start can give (decision 0033).
    const environ = readFileSync(`/proc/${s.server}/environ`, "utf8").split("\0");
    for (const [name, value] of Object.entries(MALLOC_ENV)) expect(environ).toContain(`${name}=${value}`);
    s.npm.kill("SIGTERM");
    await waitFor(async () => !alive(s.server), 15_000, "the server to exit");
    await waitFor(async () => s.output().includes("info  stopped"), 15_000, "the stopped line");
    expect(s.output()).toMatch(/info {2}shutting down signal="SIGTERM"/);
  });

  it("by SIGKILL to npm: the orphaned server notices and stops", async () => {
    const s = await npmStart(dir());
    started.push(s);
    s.npm.kill("SIGKILL");
    await waitFor(async () => !alive(s.server), 15_000, "the orphaned server to exit");
  });
});
