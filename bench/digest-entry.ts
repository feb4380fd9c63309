// The digest alone, in one process: queues the bodies bench/digest.mjs wrote, then times the
// production digest (batches of 200, as src/server/digest-worker.ts runs it) until the queue is
// empty. With `queue-writes` it times the request path's side instead: the bodies written
// through the production QueueWriter from 64 concurrent requests, and on PostgreSQL the CPU the
// database's backends spent on them. Bundled by bench/digest.mjs with esbuild; not part of the server.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { sql } from "kysely";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import process from "node:process";
import { digestBatch } from "../src/core/digest/batch";
import { QueueWriter } from "../src/core/ingest/queue-writer";
import { DEFAULT_ENVELOPE_LIMITS } from "../src/core/envelope/index";
import type { Dialect } from "../src/db/connect";
import { openDigestBench, type DigestBench } from "../test/support/digest";
import { settleQueued } from "../src/core/digest/batch";
import { ThreadSettler } from "../src/server/settle-thread";

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

/** CPU seconds the database's server processes for this bench's connections have used (PostgreSQL on this machine). */
async function backendCpuSeconds(bench: DigestBench): Promise<number> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(bench.store.db);
  let seconds = 0;
  for (const { pid } of rows) {
    // /proc/PID/stat: utime and stime are the 14th and 15th fields, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    seconds += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return seconds;
}

/** The request path's queue writes: as src/server/ingest/ingest-runtime.ts sets the writer up. */
async function queueWrites(bench: DigestBench, dialect: Dialect, bodies: readonly Buffer[], warm: number): Promise<void> {
  const writer = dialect === "postgres" ? new QueueWriter(bench.ctx.ingestQueue, false, 4) : new QueueWriter(bench.ctx.ingestQueue, true);
  const write = (body: Buffer) =>
    writer.add({ project_id: bench.projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body });
  let next = 0;
  const requests = (upTo: number) =>
    Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < upTo) await write(bodies[next++]!);
      }),
    );
  await requests(warm);
  const backend = dialect === "postgres" ? await backendCpuSeconds(bench) : 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await requests(bodies.length);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  const backendMs = dialect === "postgres" ? ((await backendCpuSeconds(bench)) - backend) * 1000 : null;
  process.stdout.write(
    JSON.stringify({ dialect, written: bodies.length - warm, warmup: warm, wallMs, cpuMs: (used.user + used.system) / 1000, backendMs }) +
      "\n",
  );
  await bench.store.cleanup();
}

/**
 * The drain's peak V8 heap (size and use) and external memory, sampled after each batch (the
 * loop does not yield to timers). External memory is counted above its level at the drain's
 * start, which holds the bodies file. What V8 lets grow between collections is most of a digest
 * thread's share of the server's peak RSS (decision 0032).
 */
function peakMemory(): { sample: () => void; read: () => Record<string, number> } {
  const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const start = process.memoryUsage().arrayBuffers;
  let heapTotal = 0;
  let heapUsed = 0;
  let external = 0;
  return {
    sample() {
      const m = process.memoryUsage();
      heapTotal = Math.max(heapTotal, m.heapTotal);
      heapUsed = Math.max(heapUsed, m.heapUsed);
      external = Math.max(external, m.arrayBuffers - start);
    },
    read: () => ({ peakHeapMb: mb(heapTotal), peakHeapUsedMb: mb(heapUsed), peakExternalMb: mb(external) }),
  };
}

async function main(): Promise<void> {
  const [file, dialect, warmText, mode, profileArg] = process.argv.slice(2) as [
    string,
    Dialect,
    string,
    string | undefined,
    string | undefined,
  ];
  const warm = Number(warmText);
  const bodies = readBodies(file);
  const bench = await openDigestBench(dialect);
  if (mode === "queue-writes") return queueWrites(bench, dialect, bodies, warm);
  // `threads`: settled as the server drains a backlog on SQLite, mostly in the production settle
  // thread (dist/settle-thread.js, `npm run build` first) while this thread writes.
  const threads = mode === "threads";
  const profileDir = threads ? profileArg : mode;
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
  let settler: ThreadSettler | null = null;
  if (threads) {
    // The settle thread reads its settings (the database) from the environment it starts with.
    Object.assign(process.env, bench.store.env);
    const here = (queued: Parameters<ThreadSettler["settle"]>[0]) => settleQueued(bench.ctx, queued, { limits: DEFAULT_ENVELOPE_LIMITS });
    // TELLTALE_BENCH_SHARE: a fixed share for the digest thread instead of the balanced one.
    const fixed = process.env.TELLTALE_BENCH_SHARE;
    settler = new ThreadSettler(
      new URL("../dist/settle-thread.js", `file://${process.cwd()}/bench/`),
      here,
      fixed ? { localShare: Number(fixed), balance: false } : {},
    );
  }
  const options = {
    batchSize: 200,
    limits: DEFAULT_ENVELOPE_LIMITS,
    ...(settler ? { settle: settler.settle, leaveDigestedRows: true } : {}),
  };
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
  const memory = peakMemory();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let taken = 0;
  for (;;) {
    const n = await digestBatch(bench.ctx, options);
    if (n === 0) break;
    taken += n;
    memory.sample();
    // As the digest worker does between batches (src/server/digest-worker.ts).
    if (threads) await new Promise((resolve) => setImmediate(resolve));
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
      ...memory.read(),
    }) + "\n",
  );
  if (settler) process.stderr.write(`the digest thread's share at the end: ${settler.localShare.toFixed(2)}\n`);
  await settler?.close();
  await bench.store.cleanup();
}

await main();
