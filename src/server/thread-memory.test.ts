import { once } from "node:events";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { launchUi } from "./ui-prestart";
import { MALLOC_ENV, WORKER_LIMITS, YOUNG_GENERATION_MB } from "./thread-memory";

const MiB = 1024 * 1024;

/**
 * A thread that allocates ~400,000 short-lived objects (with a few thousand alive at a time, as
 * a digest batch keeps them) and reports how large its young generation's space grew.
 */
function churner(): string {
  const file = join(mkdtempSync(join(tmpdir(), "telltale-young-")), "churn.mjs");
  writeFileSync(
    file,
    `import { getHeapSpaceStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
const churn = () => {
  let alive = [];
  for (let i = 0; i < 400000; i++) {
    alive.push({ i, text: "value " + i, pair: [i, i + 1] });
    if (alive.length > 20000) alive = [];
  }
  return getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
};
parentPort.postMessage(churn());`,
  );
  return file;
}

async function youngSpace(worker: Worker): Promise<number> {
  const [size] = (await once(worker, "message")) as [number];
  await worker.terminate();
  return size;
}

describe("worker threads' young generation", () => {
  it("grows to V8's default without a limit, and stays within the limit with WORKER_LIMITS", async () => {
    const file = churner();
    const unlimited = await youngSpace(new Worker(file));
    const limited = await youngSpace(new Worker(file, { resourceLimits: WORKER_LIMITS }));
    // The churn is enough to grow an unlimited young generation well past the limit...
    expect(unlimited).toBeGreaterThan(2 * YOUNG_GENERATION_MB * MiB);
    // ...and the limited one stays within it.
    expect(limited).toBeLessThanOrEqual(YOUNG_GENERATION_MB * MiB);
  });

  it("is limited in the UI worker", async () => {
    const launched = launchUi(churner(), "/srv/telltale");
    expect(await youngSpace(launched.worker)).toBeLessThanOrEqual(YOUNG_GENERATION_MB * MiB);
  });
});

describe("the command lines that start the server", () => {
  const root = join(import.meta.dirname, "..", "..");
  const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const shebang = readFileSync(join(root, "bin", "telltale.mjs"), "utf8").split("\n")[0]!;

  /** The environment a command line sets before `node`, and the flags it gives node. */
  function parse(line: string): { env: Record<string, string>; flags: string[] } {
    const words = line.split(/\s+/).filter(Boolean);
    const env: Record<string, string> = {};
    const flags: string[] = [];
    let atNode = false;
    for (const word of words) {
      if (atNode) {
        if (!word.startsWith("--")) break;
        flags.push(word);
      } else if (word === "node") atNode = true;
      else if (/^[A-Z_]+=/.test(word)) env[word.slice(0, word.indexOf("="))] = word.slice(word.indexOf("=") + 1);
    }
    return { env, flags };
  }

  it.each([
    ["npm start", scripts.start!],
    ["npm run telltale", scripts.telltale!],
    ["the telltale command's #! line", shebang.replace(/^#!\/usr\/bin\/env -S /, "")],
  ])("%s sets glibc's malloc settings and the main thread's young generation", (_name, line) => {
    const { env, flags } = parse(line);
    expect(env).toEqual(MALLOC_ENV);
    // Three semi-spaces make a young generation.
    expect(flags).toContain(`--max-semi-space-size=${YOUNG_GENERATION_MB / 3}`);
  });

  it("keeps the #! line within what Linux reads of it before 5.1 (127 bytes)", () => {
    expect(Buffer.byteLength(shebang)).toBeLessThanOrEqual(127);
  });
});
