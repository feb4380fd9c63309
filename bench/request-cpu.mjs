// The request thread's CPU per accepted envelope: what accept costs apart from the digest and
// the generator that share the machine's cores. Starts the built server on a fresh database
// (as `npm start` runs it), sends a 3 s warm-up, then one phase, and reads the main thread's
// CPU time (/proc/<pid>/task/<pid>/stat, Linux) before and after it.
//   node bench/request-cpu.mjs [--small] [--postgres] [--rate N] [--seconds 15] [--profile DIR]
// Without --rate the phase is closed-loop (64 connections, as full load); with it, open-loop at
// N envelopes/s. --small sends the small-error mix (60 % of 2–3 KB). Compare two builds with
// --server-root DIR alternately (BENCH_SERVER_ROOT), several pairs: single runs vary by ±10 %.
import process from "node:process";
import { loadCorpus } from "./corpus.mjs";
import { runLoad } from "./load.mjs";
import { createTarget, startTelltale } from "./servers.mjs";
import { idSource, prepare, schedule, scheduleSmall } from "./template.mjs";
import { prng, sleep, threadCpuSeconds } from "./util.mjs";

const args = process.argv.slice(2);
const has = (flag) => args.includes(flag);
const valueOf = (flag, fallback) => {
  const i = args.indexOf(flag);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const serverRoot = valueOf("--server-root", null);
if (serverRoot) process.env.BENCH_SERVER_ROOT = serverRoot;
const dialect = has("--postgres") ? "postgres" : "sqlite";
const rate = Number(valueOf("--rate", "0")) || null;
const seconds = Math.min(Number(valueOf("--seconds", "15")), 120);
const small = has("--small");

const corpus = await loadCorpus();
const target = await createTarget(dialect, "request-cpu");
const server = await startTelltale(target, { cpuProfDir: valueOf("--profile", null) });
try {
  const templates = corpus.map((e) =>
    prepare(e, { host: "127.0.0.1", port: server.port, projectId: target.projectId, publicKey: target.publicKey }),
  );
  const order = small ? scheduleSmall(corpus, prng(7).next) : schedule(templates, prng(7).next);
  const ids = idSource();
  await runLoad({ port: server.port, templates, order, ids, connections: 32, durationMs: 3000, rate });
  await sleep(1000);
  const before = threadCpuSeconds(server.pid);
  const phase = await runLoad({
    port: server.port,
    templates,
    order,
    ids,
    connections: 64,
    durationMs: seconds * 1000,
    rate,
    startN: 1_000_000,
  });
  const cpuMs = Math.round((threadCpuSeconds(server.pid) - before) * 1000);
  const result = {
    dialect,
    mix: small ? "small" : "mix",
    rate,
    accepted: phase.okRequests,
    statuses: phase.statuses,
    perSecond: Math.round(phase.okRequests / seconds),
    requestThreadCpuMs: cpuMs,
    microsecondsPerEnvelope: Math.round((cpuMs * 1000) / Math.max(1, phase.okRequests)),
  };
  process.stdout.write(JSON.stringify(result) + "\n");
} finally {
  await server.stop();
  await target.destroy();
}
