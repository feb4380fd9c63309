import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Settings } from "../config/settings";
import { parseDsn } from "../core/auth/dsn";
import { conflict } from "../core/errors";
import { digestedUpTo, queuedCount, upgradeQueuePages } from "../db/queue";
import { createCtx } from "../db/create-ctx";
import { connect } from "../db/connect";
import { migrate } from "../db/migrate";
import { createFront } from "./front";
import { log } from "./log";
import { createProxy } from "./proxy";
import { NOSNIFF } from "./security-headers";
import type { TunnelTarget } from "./tunnel";
import type { QueueGauge } from "../core/ingest/accept";
import { createIngestRuntime } from "./ingest/ingest-runtime";
import { launchUi, takePrestartedUi, type LaunchedUi, type UiStartMessage } from "./ui-prestart";
import { watchRequestPath, type RequestPathMessage } from "./request-path-load";

/** The digest worker thread: woken when envelopes arrive, reporting how many it digested. */
function startDigestWorker(file: string, queue: QueueGauge, digested: (upTo: number) => void) {
  let wakePending = false;
  let worker: Worker;
  let stopping = false;
  // The digest worker settles in a second thread only while this thread is idle: it is told
  // when that changes, and a restarted worker is told where things stand.
  let busy = false;
  const tellBusy = () => worker.postMessage({ type: "request-path", busy } satisfies RequestPathMessage);
  const start = () => {
    // V8's default young generation: capped at 6 MiB, the digest drained ~12 % slower (decision 0032).
    worker = new Worker(file);
    if (busy) tellBusy();
    worker.on("message", (m: { type?: string; count?: number; upTo?: number }) => {
      if (m.type === "digested") {
        queue.depth = Math.max(0, queue.depth - (m.count ?? 0));
        if (m.upTo !== undefined) digested(m.upTo);
      }
    });
    worker.on("error", (error) => log("error", "digest worker failed", { error: error.stack ?? error.message }));
    worker.on("exit", (code) => {
      if (stopping) return;
      log("error", "digest worker exited; restarting", { code });
      setTimeout(start, 1000).unref();
    });
  };
  start();
  const unwatch = watchRequestPath((now) => {
    busy = now;
    tellBusy();
  });
  return {
    wake() {
      // At most one message per turn of the event loop: once woken, the worker drains the queue.
      if (wakePending) return;
      wakePending = true;
      worker.postMessage("wake");
      setImmediate(() => (wakePending = false));
    },
    async stop() {
      stopping = true;
      unwatch();
      worker.postMessage("stop");
      await Promise.race([once(worker, "exit"), new Promise((r) => setTimeout(r, 5000))]);
      await worker.terminate();
    },
  };
}

export interface Running {
  port: number;
  /** Resolves when the web UI can answer (ingest answers from the start). */
  uiReady: Promise<void>;
  close(): Promise<void>;
}

/** How long a page request waits for the UI worker to come up before a 503. */
const UI_WAIT_MS = 30_000;

export async function serve(config: Settings, appDir: string): Promise<Running> {
  const dir = resolve(appDir);
  const workerFile = join(dirname(fileURLToPath(import.meta.url)), "next-worker.js");
  // The UI's worker loads Next.js while this thread migrates and starts listening (ui-prestart.ts).
  const first = takePrestartedUi(dir) ?? launchUi(workerFile, dir);
  try {
    return await serveWith(config, first, workerFile);
  } catch (error) {
    await first.worker.terminate();
    throw error;
  }
}

async function serveWith(config: Settings, first: LaunchedUi, workerFile: string): Promise<Running> {
  const { dir, socketPath } = first.input;
  // The digest worker checkpoints both files' WALs (src/server/digest-worker.ts); this thread
  // writes the queue file and retries a busy write rather than wait in SQLite (src/db/connect.ts).
  const store = connect(config.database, { checkpoints: false, queueWriter: true });
  const { applied } = await migrate(store);
  if (applied.length) log("info", "migrated", { applied: applied.join(",") });
  // Before the threads that open the queue file start: a rewrite needs the file to itself.
  const queuePages = await upgradeQueuePages(store);
  if (queuePages.upgraded)
    log("info", "queue file rewritten with larger pages", { from: queuePages.fromPageBytes, ms: Math.round(queuePages.ms) });
  else if (queuePages.reason === "failed")
    log("warn", "queue file keeps its older pages: rewriting it failed", { error: queuePages.error });
  else if (queuePages.reason !== "current")
    log("info", "queue file keeps its older pages until a later start", { reason: queuePages.reason });
  const ctx = createCtx(config, store);

  const selfDsn = config.selfMonitoring.mode === "dsn" ? parseDsn(config.selfMonitoring.dsn) : null;
  const tunnel: TunnelTarget | null = selfDsn ? { dsn: selfDsn } : null;
  const proxy = createProxy(socketPath, { trustProxy: config.trustProxy, https: config.publicUrl.startsWith("https:") });

  let markReady: () => void = () => {};
  const uiReady = new Promise<void>((r) => (markReady = r));
  let isReady = false;
  const pages = (req: IncomingMessage, res: ServerResponse) => {
    if (isReady) return proxy(req, res);
    const timer = setTimeout(() => {
      if (!res.headersSent) {
        res.writeHead(503, { "content-type": "text/plain", "retry-after": "1", ...NOSNIFF });
        res.end("Telltale is starting; try again in a moment.");
      }
    }, UI_WAIT_MS);
    void uiReady.then(() => {
      clearTimeout(timer);
      if (!res.headersSent) proxy(req, res);
    });
  };

  const queued = await queuedCount(store);
  const ingest = createIngestRuntime(ctx, config, queued);
  const digest = startDigestWorker(join(dirname(fileURLToPath(import.meta.url)), "digest-worker.js"), ingest.queue, (upTo) =>
    ingest.enqueue.forget(upTo),
  );
  // Rows digested before a restart and not yet deleted (SQLite) go with the first write.
  if (store.dialect === "sqlite") ingest.enqueue.forget(await digestedUpTo(store.db));
  const enqueued = ingest.queue.enqueued;
  ingest.queue.enqueued = () => {
    enqueued();
    digest.wake();
  };
  if (queued > 0) log("info", "resuming digest of queued envelopes", { queued: queued });

  const front = createFront({ ingest, pages, tunnel, clients: config.clients });
  front.listen(config.port, config.host);
  try {
    await once(front, "listening");
  } catch (error) {
    await digest.stop();
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    // A TelltaleError: the CLI prints its message alone, without a stack, and exits 1.
    if (code === "EADDRINUSE") throw conflict(`port ${config.port} on ${config.host} is already in use: stop the other server or set PORT`);
    throw error;
  }
  const port = (front.address() as AddressInfo).port;
  const loopbackUrl = `http://127.0.0.1:${port}`;
  log("info", "listening", { url: config.publicUrl, port, database: store.dialect });

  let worker: Worker | null = null;
  let stopping = false;
  const startWorker = (launched: LaunchedUi) => {
    const w = launched.worker;
    w.on("message", (message: { type?: string; selfMonitoring?: string }) => {
      if (message.type !== "ready") return;
      isReady = true;
      markReady();
      log("info", "web UI ready", { ms: Date.now() - launched.startedAt, selfMonitoring: message.selfMonitoring });
    });
    w.on("error", (error) => log("error", "web UI worker failed", { error: error.stack ?? error.message }));
    const restart = (code: number) => {
      if (stopping) return;
      // Ingest keeps working; bring the UI back after a pause rather than exiting the process.
      isReady = false;
      log("error", "web UI worker exited; restarting", { code });
      setTimeout(() => startWorker(launchUi(workerFile, dir)), 1000).unref();
    };
    if (launched.exitCode !== null) restart(launched.exitCode);
    else w.on("exit", restart);
    const start: UiStartMessage = { type: "start", loopbackUrl };
    w.postMessage(start);
    worker = w;
  };
  startWorker(first);

  return {
    port,
    uiReady,
    async close() {
      stopping = true;
      const w = worker;
      if (w) {
        w.postMessage("shutdown");
        await Promise.race([once(w, "exit"), new Promise((r) => setTimeout(r, 3000))]);
        await w.terminate();
      }
      front.closeAllConnections();
      await new Promise<void>((r) => front.close(() => r()));
      await ingest.outcomes.flush();
      await digest.stop();
      await store.close();
    },
  };
}
