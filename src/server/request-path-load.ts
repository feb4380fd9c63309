import { performance, type EventLoopUtilization } from "node:perf_hooks";

/**
 * Whether the request path (the main thread's event loop) is busy, from its event-loop
 * utilization, with hysteresis so that the answer does not flap: busy from `busyAbove`, idle again
 * below `idleBelow`. The digest worker settles in a second thread only while the request path is
 * idle (docs/decisions/0030-settling-beside-the-writer.md): under load both cores already have
 * work, and a second digest thread took accept rate and latency from SDKs.
 */
export class RequestPathLoad {
  private busy = false;

  constructor(
    private readonly busyAbove = 0.5,
    private readonly idleBelow = 0.3,
  ) {}

  /** The new state when `utilization` (0–1, over the last interval) changes it, else null. */
  update(utilization: number): boolean | null {
    const next = this.busy ? utilization >= this.idleBelow : utilization > this.busyAbove;
    if (next === this.busy) return null;
    this.busy = next;
    return next;
  }
}

/** How often the main thread's utilization is sampled. */
export const LOAD_SAMPLE_MS = 250;

/** The message the main thread posts to the digest worker when the request path turns busy or idle. */
export interface RequestPathMessage {
  type: "request-path";
  busy: boolean;
}

export const isRequestPathMessage = (m: unknown): m is RequestPathMessage =>
  typeof m === "object" &&
  m !== null &&
  (m as { type?: unknown }).type === "request-path" &&
  typeof (m as { busy?: unknown }).busy === "boolean";

/** Samples this thread's event-loop utilization every LOAD_SAMPLE_MS and tells `changed` when it turns busy or idle. */
export function watchRequestPath(changed: (busy: boolean) => void): () => void {
  const load = new RequestPathLoad();
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = load.update(performance.eventLoopUtilization(now, last).utilization);
    last = now;
    if (busy !== null) changed(busy);
  }, LOAD_SAMPLE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
