import { parentPort } from "node:worker_threads";
import { sql } from "kysely";
import { settings } from "../config/settings";
import { checkpointQueue, digestedUpTo } from "../db/queue";
import { digestBatch, settleQueued } from "../core/digest/batch";
import { runRetention } from "../core/retention/run";
import { createCtx } from "../db/create-ctx";
import { productionEnrichers } from "../core/digest/enrich/registry";
import { connect } from "../db/connect";
import { envelopeLimits } from "./ingest/ingest-runtime";
import { log, setLogLevel } from "./log";
import { ThreadMapResolver } from "./sourcemap-thread";
import { ThreadSettler } from "./settle-thread";
import { lowerThreadPriority } from "./thread-priority";
import { isRequestPathMessage } from "./request-path-load";
import type { SettleBatch } from "../core/ports/digest-queue";

/**
 * The digest step in its own thread, so that JSON parsing and normalization use the second
 * core and never delay an ingest answer. It drains the queue in batches and sleeps when the
 * queue is empty until the front says more arrived (or a poll interval passes, for envelopes
 * accepted by other processes on PostgreSQL).
 */
// The digest runs at a lower CPU priority than the request path (src/server/thread-priority.ts).
lowerThreadPriority();

const config = settings();
setLogLevel(config.logLevel);
const store = connect(config.database, { digest: true });
const ctx = createCtx(config, store);
const sqlite = store.dialect === "sqlite";
/** Source maps decode in a thread of their own (the bundle next to this one), so a large one holds nobody up. */
const maps = new ThreadMapResolver(new URL("./sourcemap-thread.js", import.meta.url));
const limits = envelopeLimits(config.ingest);
const enrichers = productionEnrichers(ctx.artifacts, maps);
/**
 * On SQLite, while the request path is idle (a backlog draining after a load), batches are
 * settled mostly in a thread of their own while this one writes the batch before
 * (src/server/settle-thread.ts, decision 0030); while SDKs keep the request path busy (told by
 * the main thread, src/server/request-path-load.ts) this thread settles alone, leaving the other
 * core to them. On PostgreSQL a batch is claimed in the transaction that writes it, and several
 * processes may digest at once: each settles its own.
 */
const settleHere: SettleBatch = (queued) => settleQueued(ctx, queued, { limits, enrichers });
const settler = sqlite ? new ThreadSettler(new URL("./settle-thread.js", import.meta.url), settleHere) : null;
let requestPathBusy = false;
const settle: SettleBatch | undefined = settler ? (queued) => (requestPathBusy ? settleHere(queued) : settler.settle(queued)) : undefined;
// On SQLite the request path deletes digested queue rows: this thread only reads the queue file.
const options = {
  batchSize: 200,
  limits,
  leaveDigestedRows: sqlite,
  enrichers,
  ...(settle ? { settle } : {}),
  onSetAside: (count: number) => log("warn", "envelopes set aside as dead letters; see Dead letters on the organization page", { count }),
};
/**
 * Upkeep of both SQLite files' WALs, from here rather than the main or UI thread, whose
 * connections run no automatic checkpoints (src/db/connect.ts, `checkpoints`): at most once a
 * second the queue file's (src/db/queue.ts, `checkpointQueue`) and a passive one of the main
 * file, which this thread's own commits otherwise checkpoint as they go. Freed queue pages are
 * given back by the request path when it is idle (src/core/ingest/queue-writer.ts): this thread
 * does not write the queue file, whose writes the request path waits for — an idle digest's
 * vacuum and TRUNCATE checkpoint held ingest up for up to 30 s after a backlog drained
 * (docs/benchmarks.md; test/integration/queue-file-writer.test.ts).
 */
const CHECKPOINT_EVERY_MS = 1000;
let lastCheckpoint = 0;

async function tidyFiles(): Promise<void> {
  if (!sqlite) return;
  if (Date.now() - lastCheckpoint < CHECKPOINT_EVERY_MS) return;
  lastCheckpoint = Date.now();
  await checkpointQueue(store.queue);
  await sql`pragma wal_checkpoint(PASSIVE)`.execute(store.db);
}

const POLL_MS = 500;
/** Retention runs an hour apart, the first a minute after start. */
const RETENTION_EVERY_MS = 3_600_000;
let nextRetention = Date.now() + 60_000;

async function retentionIfDue(): Promise<void> {
  if (Date.now() < nextRetention) return;
  nextRetention = Date.now() + RETENTION_EVERY_MS;
  const started = Date.now();
  const { deleted } = await runRetention(ctx, { ...config.retention, batch: 1000 });
  const total = Object.values(deleted).reduce((s, n) => s + n, 0);
  if (total > 0) log("info", "retention deleted old data", { ms: Date.now() - started, ...deleted });
}

let stopping = false;
let wake: (() => void) | null = null;
parentPort?.on("message", (message: unknown) => {
  if (isRequestPathMessage(message)) requestPathBusy = message.busy;
  if (message === "wake") wake?.();
  if (message === "stop") {
    stopping = true;
    wake?.();
  }
});

async function loop(): Promise<void> {
  let failures = 0;
  while (!stopping) {
    try {
      await retentionIfDue();
      const n = await digestBatch(ctx, options);
      failures = 0;
      if (n > 0) {
        parentPort?.postMessage({ type: "digested", count: n, upTo: sqlite ? await digestedUpTo(store.db) : undefined });
        await tidyFiles();
        // A batch is promises and synchronous SQLite calls: without a turn of the event loop,
        // the main thread's messages (the request path turning idle, "stop") would wait for
        // the whole backlog.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      await tidyFiles();
    } catch (error) {
      failures++;
      log("error", "digest batch failed; it stays queued and is retried", {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, failures ? Math.min(30_000, 500 * 2 ** failures) : POLL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = null;
  }
  await settler?.close();
  await maps.close();
  await store.close();
  parentPort?.postMessage({ type: "stopped" });
  // The message listener would keep this thread alive, and the server's shutdown would wait for it.
  parentPort?.close();
}

void loop();
