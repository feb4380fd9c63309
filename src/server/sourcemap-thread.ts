import { parentPort, Worker, workerData } from "node:worker_threads";
import { LocalMapResolver, type MapResolver, type ResolveAnswer, type ResolveRequest } from "../core/sourcemaps/resolver";
import { log } from "./log";

/**
 * Source maps are decoded in a thread of their own, started by the digest thread on first use
 * (issue 13): parsing a 50 MB map and indexing the functions of its minified file take seconds
 * of CPU, during which the digest goes on with other projects' events (an event waiting for
 * its map is deferred, see src/core/digest/enrich/run.ts). The thread keeps what it decoded,
 * bounded by weight; a request it has not answered in a minute, or the thread dying (say, out of
 * its memory limit), fails the requests in flight and the next request starts a new thread.
 */

interface Asked {
  id: number;
  request: ResolveRequest;
}
type Answered = { id: number; answer: ResolveAnswer } | { id: number; error: string };

/** Decoded maps and scope indexes the thread keeps, by weight (about three times a map's text). */
const CACHE_WEIGHT = 256 * 1024 * 1024;
/** A heap for maps this size and their minified files' syntax trees (src/core/sourcemaps/limits.ts). */
const HEAP_MB = 1536;
const REQUEST_TIMEOUT_MS = 60_000;

/** Tells the thread this module was started as from a thread that merely imports it (the digest's). */
const ROLE = "telltale-sourcemaps";

if (parentPort && (workerData as { role?: unknown } | null)?.role === ROLE) {
  const port = parentPort;
  const resolver = new LocalMapResolver(CACHE_WEIGHT);
  port.on("message", ({ id, request }: Asked) => {
    let reply: Answered;
    try {
      reply = { id, answer: resolver.resolveNow(request) };
    } catch (error) {
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

/** The digest thread's side: a MapResolver whose work runs in the source-map thread. */
export class ThreadMapResolver implements MapResolver {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { worker: Worker; resolve(answer: ResolveAnswer): void; reject(error: Error): void; timer: NodeJS.Timeout }
  >();

  constructor(private readonly entry: URL) {}

  resolve(request: ResolveRequest): Promise<ResolveAnswer> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<ResolveAnswer>((resolve, reject) => {
      const timer = setTimeout(
        () => this.stop(worker, new Error(`the source-map thread gave no answer in ${REQUEST_TIMEOUT_MS / 1000} s`)),
        REQUEST_TIMEOUT_MS,
      );
      timer.unref();
      this.waiting.set(id, { worker, resolve, reject, timer });
      worker.postMessage({ id, request } satisfies Asked);
    });
  }

  async close(): Promise<void> {
    if (this.worker) await this.stop(this.worker, new Error("the source-map thread was stopped"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry, { workerData: { role: ROLE }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    worker.unref();
    worker.on("message", (reply: Answered) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if ("error" in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.answer);
    });
    worker.on("error", (error) => {
      log("warn", "the source-map thread failed; it starts again on the next map", { error: error.message });
      void this.stop(worker, error);
    });
    worker.on("exit", () => void this.stop(worker, new Error("the source-map thread exited")));
    this.worker = worker;
    return worker;
  }

  /** Ends a thread and fails its requests in flight; the next request starts a new thread. */
  private async stop(worker: Worker, error: Error): Promise<void> {
    if (this.worker === worker) this.worker = null;
    for (const [id, waiter] of this.waiting) {
      if (waiter.worker !== worker) continue;
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.waiting.delete(id);
    }
    await worker.terminate();
  }
}
