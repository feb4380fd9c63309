import type { EventLoopUtilization } from "node:perf_hooks";
import { type MessagePort, Worker } from "node:worker_threads";

/**
 * A worker thread that answers numbered requests — the source-map thread and the settle thread
 * (src/server/sourcemap-thread.ts, src/server/settle-thread.ts). Started on the first request; a
 * request it has not answered in `timeoutMs`, or the thread dying (say, out of its memory limit),
 * fails the requests in flight, and the next request starts a new thread. With `idleStopMs` the
 * thread is also ended once no request has come for that long, giving its heap back.
 */
interface Asked<Q> {
  id: number;
  request: Q;
}
type Answered<A> = { id: number; answer: A } | { id: number; error: string };

export interface RequestThreadOptions {
  /** Named in errors: "the source-map thread". */
  name: string;
  /** Tells the thread's module it was started as that thread (`workerData.role`). */
  role: string;
  heapMb: number;
  /** The young generation's size (V8's default when unset). */
  youngMb?: number;
  timeoutMs: number;
  idleStopMs?: number;
  /** Told when the thread fails (an uncaught error, its heap exhausted). */
  onFailure?: (error: Error) => void;
}

/** The thread's side: answers each request with `handle`'s result, or its error's message. */
export function answerRequests<Q, A>(port: MessagePort, handle: (request: Q) => A | Promise<A>): void {
  port.on("message", ({ id, request }: Asked<Q>) => {
    Promise.resolve()
      .then(() => handle(request))
      .then(
        (answer) => port.postMessage({ id, answer } satisfies Answered<A>),
        (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies Answered<A>),
      );
  });
}

/** The asking side. */
export class RequestThread<Q, A> {
  private worker: Worker | null = null;
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private readonly waiting = new Map<
    number,
    { worker: Worker; resolve(answer: A): void; reject(error: Error): void; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly entry: URL | string,
    private readonly options: RequestThreadOptions,
  ) {}

  ask(request: Q): Promise<A> {
    const worker = this.started();
    const id = this.nextId++;
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    return new Promise<A>((resolve, reject) => {
      const { name, timeoutMs } = this.options;
      const timer = setTimeout(() => void this.stop(worker, new Error(`${name} gave no answer in ${timeoutMs / 1000} s`)), timeoutMs);
      timer.unref();
      this.waiting.set(id, { worker, resolve, reject, timer });
      worker.postMessage({ id, request } satisfies Asked<Q>);
    });
  }

  /**
   * How busy the running thread's event loop has been since it started (node:perf_hooks), with
   * the thread it was read from, so that two readings are compared only within one thread; null
   * while no thread runs.
   */
  eventLoopUtilization(): { thread: object; utilization: EventLoopUtilization } | null {
    return this.worker ? { thread: this.worker, utilization: this.worker.performance.eventLoopUtilization() } : null;
  }

  async close(): Promise<void> {
    if (this.worker) await this.stop(this.worker, new Error(`${this.options.name} was stopped`));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const { name, role, heapMb, youngMb } = this.options;
    const resourceLimits = { maxOldGenerationSizeMb: heapMb, ...(youngMb ? { maxYoungGenerationSizeMb: youngMb } : {}) };
    const worker = new Worker(this.entry, { workerData: { role }, resourceLimits });
    worker.unref();
    worker.on("message", (reply: Answered<A>) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiter.timer);
      if ("error" in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.answer);
      this.stopWhenIdle(worker);
    });
    worker.on("error", (error) => {
      this.options.onFailure?.(error);
      void this.stop(worker, error);
    });
    worker.on("exit", () => void this.stop(worker, new Error(`${name} exited`)));
    this.worker = worker;
    return worker;
  }

  private stopWhenIdle(worker: Worker): void {
    const { idleStopMs, name } = this.options;
    if (idleStopMs === undefined || this.waiting.size > 0 || this.worker !== worker) return;
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.stop(worker, new Error(`${name} was idle`)), idleStopMs);
    this.idle.unref();
  }

  /** Ends a thread and fails its requests in flight; the next request starts a new thread. */
  private async stop(worker: Worker, error: Error): Promise<void> {
    if (this.worker === worker) {
      this.worker = null;
      if (this.idle) clearTimeout(this.idle);
      this.idle = null;
    }
    for (const [id, waiter] of this.waiting) {
      if (waiter.worker !== worker) continue;
      clearTimeout(waiter.timer);
      waiter.reject(error);
      this.waiting.delete(id);
    }
    await worker.terminate();
  }
}
