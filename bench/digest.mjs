// The digest's CPU cost per envelope, apart from accept: corpus envelopes (fresh ids per
// send, as the load generator makes them) are queued in a fresh database, then the production
// digest drains them in this process and the run prints CPU and wall time per envelope, and the
// drain's peak V8 heap and external memory (this process's thread, sampled after each batch).
//   node bench/digest.mjs [--count 4000] [--warmup 5000] [--kind error|mix] [--postgres] [--profile DIR] [--seed 1] [--threads]
// With --threads (SQLite) the drain settles mostly in the production settle thread, as the server
// drains a backlog (decision 0030; `npm run build` first): CPU is then both threads'. The
// digest thread's share follows the threads' load, or stays at TELLTALE_BENCH_SHARE when set;
// --profile then profiles the digest thread's side (this process's main thread).
// With --profile the drain alone is profiled (node:inspector) into DIR and the run lists where
// its time went. With --queue-writes nothing is digested: the bodies are written to the queue
// as the request path writes them (QueueWriter's group commits, 64 requests at once), and the
// run prints this process's CPU and, on PostgreSQL, the database's per envelope.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { build as esbuild } from "esbuild";
import { loadCorpus } from "./corpus.mjs";
import { summarizeProfiles } from "./profile.mjs";
import { build, idSource, prepare, schedule, scheduleSmall } from "./template.mjs";
import { CACHE, log, prng, ROOT } from "./util.mjs";
import { Buffer } from "node:buffer";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const count = Number(opt("count", 4000));
// A fresh process digests its first ~4,000 envelopes at up to 1.5× the CPU of the ones after
// (docs/benchmarks.md): timing from the 1,001st measured that warm-up as much as the digest.
const warm = Number(opt("warmup", 5000));
const kind = opt("kind", "error");
const seed = Number(opt("seed", 1));
const profile = opt("profile", null);
const dialect = args.includes("--postgres") ? "postgres" : "sqlite";
const queueWrites = args.includes("--queue-writes");
const threads = args.includes("--threads");

const entries = (await loadCorpus()).filter((e) => e.endpoint !== "store");
const target = { publicKey: "0".repeat(32), projectId: 1, host: "127.0.0.1", port: 1 };
const templates = entries.map((e) => ({ ...prepare(e, target, { identity: true }), chunked: false }));
const picks =
  kind === "mix"
    ? schedule(templates, prng(seed).next, warm + count)
    : kind === "small"
      ? scheduleSmall(entries, prng(seed).next, warm + count)
      : (() => {
          const ofKind = templates.flatMap((t, i) => (t.kind === kind ? [i] : []));
          const rand = prng(seed);
          return Array.from({ length: warm + count }, () => rand.pick(ofKind));
        })();
const ids = idSource();
const parts = [];
let bytes = 0;
picks.forEach((index, n) => {
  const request = build(templates[index], n, ids);
  const body = request.subarray(request.indexOf("\r\n\r\n") + 4);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  parts.push(length, body);
  bytes += body.length;
});
const dir = join(CACHE, "digest");
mkdirSync(dir, { recursive: true });
const bodiesFile = join(dir, "bodies.bin");
writeFileSync(bodiesFile, Buffer.concat(parts));
const entry = join(dir, "entry.mjs");
await esbuild({
  entryPoints: [join(ROOT, "bench/digest-entry.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: entry,
  packages: "external",
  logLevel: "error",
});
const profileDir = profile ?? null;
if (profileDir) rmSync(profileDir, { recursive: true, force: true });
log(
  `${queueWrites ? "queue-write" : "digest"} bench: ${count} ${kind} envelopes after ${warm} to warm up (${(bytes / (warm + count) / 1024).toFixed(1)} KiB average, seed ${seed}) on ${dialect}`,
);
const mode = queueWrites ? ["queue-writes"] : threads ? ["threads", ...(profileDir ? [profileDir] : [])] : profileDir ? [profileDir] : [];
const child = spawnSync(process.execPath, [entry, bodiesFile, dialect, String(warm), ...mode], {
  cwd: ROOT,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
});
if (child.status !== 0) process.exit(child.status ?? 1);
const result = JSON.parse(child.stdout.trim().split("\n").pop());
const perEnvelope = (ms) => ((ms / (result.envelopes ?? result.written)) * 1000).toFixed(0);
if (queueWrites) {
  const backend =
    result.backendMs === null ? "" : `, the database ${(result.backendMs / 1000).toFixed(2)} s (${perEnvelope(result.backendMs)} µs each)`;
  log(
    `wrote ${result.written} envelopes to the queue in ${(result.wallMs / 1000).toFixed(2)} s: ` +
      `this process ${(result.cpuMs / 1000).toFixed(2)} s CPU (${perEnvelope(result.cpuMs)} µs each)${backend}`,
  );
  process.stdout.write(JSON.stringify(result) + "\n");
  process.exit(0);
}
log(
  `digested ${result.envelopes} envelopes (${result.events} events, ${result.spans} spans): ` +
    `${(result.cpuMs / 1000).toFixed(2)} s CPU (${perEnvelope(result.cpuMs)} µs each), ` +
    `${(result.wallMs / 1000).toFixed(2)} s wall, ${((result.envelopes / result.wallMs) * 1000).toFixed(0)} envelopes/s; ` +
    `peak heap ${result.peakHeapMb} MB (${result.peakHeapUsedMb} MB in use), external +${result.peakExternalMb} MB`,
);
process.stdout.write(JSON.stringify(result) + "\n");
if (profileDir) process.stdout.write(summarizeProfiles(profileDir, 30) + "\n");
