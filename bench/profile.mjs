// Reads the .cpuprofile files `node --cpu-prof` writes (one per thread) and lists the
// functions with the most self time: where the server's CPU went during the run.
//   node bench/profile.mjs DIR [TOP]
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import process from "node:process";

function selfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url ? `${basename(url.replace(/^file:\/\//, ""))}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    total += us;
  }
  return { total, top: [...byFunction.entries()].sort((a, b) => b[1] - a[1]) };
}

export function summarizeProfiles(dir, top = 15) {
  let files;
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  } catch {
    return "(no profiles written)";
  }
  const out = [];
  const threads = files.map((f) => ({ f, ...selfTimes(JSON.parse(readFileSync(join(dir, f), "utf8"))) })).sort((a, b) => b.total - a.total);
  for (const { f, total, top: list } of threads) {
    const idle = list.find(([k]) => k.startsWith("(idle)"))?.[1] ?? 0;
    out.push(`${f}: ${(total / 1e6).toFixed(1)} s sampled, ${((total - idle) / 1e6).toFixed(1)} s busy`);
    for (const [name, us] of list.filter(([k]) => !k.startsWith("(idle)")).slice(0, top))
      out.push(`  ${((us / Math.max(1, total - idle)) * 100).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${name}`);
  }
  return out.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(summarizeProfiles(process.argv[2], Number(process.argv[3] ?? 25)) + "\n");
}
