// Ingest phases against one running server: a short warm-up, full load (closed loop, N
// connections), then half of the rate full load reached (open loop). With a database, each
// phase is followed by waiting until the ingest queue is empty, which gives the digest rate:
// envelopes accepted in the phase ÷ time from the phase's start until all are visible.
import { log, procStats, sampler, sleep } from "./util.mjs";
import { runLoad } from "./load.mjs";
import { storedEvents, waitDrained } from "./servers.mjs";
import { performance } from "node:perf_hooks";

/** Send numbers are unique across all phases of a run, so ids never repeat. */
export function counter() {
  let n = 0;
  return { take: (k) => ((n += k), n - k), peek: () => n };
}

async function phase(server, load, { name, db, drainMs, ids, seq, postgres }) {
  const before = db ? await storedEvents(db) : 0;
  const startN = seq.peek();
  const usage = sampler(server.pid, 250, { postgres });
  const t0 = performance.now();
  const result = await runLoad({
    ...load,
    port: server.port,
    ids,
    startN,
    onProgress: (p) => {
      if (Math.round(p.seconds) % 5 === 0) log(`  ${server.name} ${name}: ${p.okRequests} accepted after ${p.seconds.toFixed(0)} s`);
    },
  });
  seq.take(result.sent + 64);
  const atLoadEnd = usage.stop();
  const out = {
    ...result,
    cpuCores: atLoadEnd.cores,
    cpuSeconds: atLoadEnd.cpuSeconds,
    maxRssMb: atLoadEnd.maxRssMb,
    generatorCores: atLoadEnd.generatorCores,
    postgresCores: atLoadEnd.postgresCores,
    otherCores: atLoadEnd.otherCores,
  };
  if (db) {
    const drainUsage = sampler(server.pid, 250, { postgres });
    const { drainedAt, queued } = await waitDrained(db, { timeoutMs: drainMs, pid: server.pid });
    const drained = drainUsage.stop();
    const visible = (await storedEvents(db)) - before;
    const seconds = ((drainedAt ?? performance.now()) - t0) / 1000;
    out.digest = {
      complete: drainedAt !== null,
      queuedLeft: queued,
      seconds,
      backlogSeconds: Math.max(0, seconds - result.seconds),
      requestsPerSecond: result.okRequests / seconds,
      eventsPerSecond: visible / seconds,
      visibleEvents: visible,
      expectedEvents: result.okEvents,
      cpuCores: (atLoadEnd.cpuSeconds + drained.cpuSeconds) / (atLoadEnd.seconds + drained.seconds),
      maxRssMb: Math.max(atLoadEnd.maxRssMb, drained.maxRssMb),
    };
  }
  return out;
}

/**
 * Measures one server. Returns { full, half } (each with digest figures when `db` is given)
 * plus the process's peak RSS.
 */
export async function measureIngest(
  server,
  { templates, order, ids, seq, db = null, postgres = false, connections, durationMs, warmupMs, drainMs },
) {
  const base = { templates, order, connections };
  log(`${server.name}: warm-up ${warmupMs / 1000} s`);
  await phase(server, { ...base, durationMs: warmupMs }, { name: "warm-up", db, drainMs, ids, seq, postgres });
  await sleep(500);
  log(`${server.name}: full load, ${connections} connections, ${durationMs / 1000} s`);
  const full = await phase(server, { ...base, durationMs }, { name: "full", db, drainMs, ids, seq, postgres });
  log(
    `${server.name}: full → ${full.requestsPerSecond.toFixed(0)} envelopes/s accepted, p99 ${full.p99.toFixed(1)} ms${full.digest ? `, digested ${full.digest.requestsPerSecond.toFixed(0)}/s` : ""}`,
  );
  await sleep(500);
  const rate = Math.max(1, full.requestsPerSecond / 2);
  log(`${server.name}: half load, ${rate.toFixed(0)} envelopes/s for ${durationMs / 1000} s`);
  const half = await phase(server, { ...base, durationMs, rate }, { name: "half", db, drainMs, ids, seq, postgres });
  log(
    `${server.name}: half → ${half.requestsPerSecond.toFixed(0)} envelopes/s, p50 ${half.p50.toFixed(1)} ms, p99 ${half.p99.toFixed(1)} ms`,
  );
  return { full, half, hwmMb: procStats(server.pid)?.hwmMb ?? NaN };
}
