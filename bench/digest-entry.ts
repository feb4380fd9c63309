// The digest alone, in one process: queues the bodies bench/digest.mjs wrote, then times the
// production digest (batches of 200, as src/server/digest-worker.ts runs it) until the queue is
// empty. Bundled by bench/digest.mjs with esbuild; not part of the server.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import process from "node:process";
import { digestBatch } from "../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../src/core/envelope/index";
import type { Dialect } from "../src/db/connect";
import { openDigestBench } from "../test/support/digest";

function readBodies(file: string): Buffer[] {
  const all = readFileSync(file);
  const bodies: Buffer[] = [];
  for (let at = 0; at < all.length;) {
    const length = all.readUInt32LE(at);
    bodies.push(all.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return bodies;
}

async function main(): Promise<void> {
  const [file, dialect, warmText, profileDir] = process.argv.slice(2) as [string, Dialect, string, string | undefined];
  const warm = Number(warmText);
  const bodies = readBodies(file);
  const bench = await openDigestBench(dialect);
  const batch = 500;
  for (let i = 0; i < bodies.length; i += batch) {
    const rows = bodies.slice(i, i + batch).map((body) => ({
      project_id: bench.projectId,
      key_id: 0,
      endpoint: "envelope" as const,
      received_at: Date.now(),
      body,
    }));
    await bench.store.queue.insertInto("ingest_queue").values(rows).execute();
  }
  const options = { batchSize: 200, limits: DEFAULT_ENVELOPE_LIMITS };
  // The first envelopes warm the JIT up (V8 compiles hot code on other threads): not timed.
  let warmed = 0;
  while (warmed < warm) {
    const n = await digestBatch(bench.ctx, { ...options, batchSize: Math.min(options.batchSize, warm - warmed) });
    if (n === 0) break;
    warmed += n;
  }
  // Only the drain is profiled: setting up and queueing are not the digest's cost.
  const session = profileDir ? new Session() : null;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let taken = 0;
  for (;;) {
    const n = await digestBatch(bench.ctx, options);
    if (n === 0) break;
    taken += n;
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  if (session && profileDir) {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, "digest.cpuprofile"), JSON.stringify(profile));
    session.disconnect();
  }
  const events = await bench.store.db
    .selectFrom("events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const spans = await bench.store.db
    .selectFrom("spans")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  process.stdout.write(
    JSON.stringify({
      dialect,
      envelopes: taken,
      warmup: warmed,
      events: Number(events.n),
      spans: Number(spans.n),
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      heapMb: process.memoryUsage().heapUsed / 2 ** 20,
    }) + "\n",
  );
  await bench.store.cleanup();
}

await main();
