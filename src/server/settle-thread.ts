import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { settings } from "../config/settings";
import { createCtx } from "../core/create-ctx";
import { settleQueued } from "../core/digest/batch";
import { productionEnrichers } from "../core/digest/enrich/registry";
import type { Settled } from "../core/digest/settled";
import type { QueuedEnvelope, SettleBatch } from "../core/ports/digest-queue";
import { connect } from "../db/connect";
import { envelopeLimits } from "./ingest/ingest-runtime";
import { log, setLogLevel } from "./log";
import { YOUNG_GENERATION_MB } from "./thread-memory";
import { answerRequests, RequestThread } from "./request-thread";
import { ThreadMapResolver } from "./sourcemap-thread";
import { lowerThreadPriority } from "./thread-priority";

/**
 * The digest's CPU work in a second thread (issue 11): parsing, normalizing, enriching,
 * grouping and compressing a batch — its settling — runs here while the digest thread writes
 * the batch before it, so a backlog is drained on both cores once the request path leaves one
 * idle (docs/decisions/0030-settling-beside-the-writer.md). The digest thread stays the only
 * writer. Started on the first batch, stopped after a while without one, so an idle server
 * holds no third V8 heap for it. A batch this thread cannot settle — it died, timed out or
 * threw — is settled in the digest thread instead, where one envelope's fault becomes that
 * envelope's dead letter: nothing waits on this thread forever.
 */

const ROLE = "telltale-settle";
/**
 * A batch is 16 MiB of bodies at most (src/core/digest/batch.ts); what it parses into fits well
 * within this. The limit also keeps the heap small: V8 collects an old generation under 2 GiB
 * more often, which makes settling ~28 % more expensive in CPU; without it a drain was about as
 * fast, and the thread's memory stayed resident after it (decision 0032).
 */
const HEAP_MB = 128;
const REQUEST_TIMEOUT_MS = 60_000;
const IDLE_STOP_MS = 300_000;

/** The thread's side: settles what it is sent, with its own connection (reads only) and enrichers. */
function serve(port: MessagePort): void {
  lowerThreadPriority();
  const config = settings();
  setLogLevel(config.logLevel);
  const store = connect(config.database, { checkpoints: false });
  const ctx = createCtx(config, store);
  const maps = new ThreadMapResolver(new URL("./sourcemap-thread.js", import.meta.url));
  const options = { limits: envelopeLimits(config.ingest), enrichers: productionEnrichers(ctx.artifacts, maps) };
  answerRequests(port, async (queued: readonly QueuedEnvelope[]) => {
    const settled = await settleQueued(ctx, queued, options);
    // The digest thread keeps the bodies (a dead letter's): they are not sent back.
    for (const s of settled) s.letter = { ...s.letter, body: EMPTY };
    return settled;
  });
}
const EMPTY = new Uint8Array(0);

if (parentPort && (workerData as { role?: unknown } | null)?.role === ROLE) serve(parentPort);

/**
 * The share of each batch the digest thread settles itself, its tail: with the batch before it
 * to write (and the records of this thread's share to take in), the digest thread then finishes
 * its part about when the settle thread finishes the rest (`npm run bench:digest`, the mix:
 * settling 73 % of the work, writing 27 %, the records' copy between threads a fifth of settling).
 */
export const LOCAL_SHARE = 0.3;

/**
 * The digest thread's side: a SettleBatch whose work runs mostly in the settle thread, the
 * batch's last `localShare` settled by `local` meanwhile, and all of it by `local` when the thread
 * does not settle its part.
 */
export class ThreadSettler {
  private readonly thread: RequestThread<readonly QueuedEnvelope[], Settled[]>;

  constructor(
    entry: URL | string,
    private readonly local: SettleBatch,
    timeoutMs = REQUEST_TIMEOUT_MS,
    private readonly localShare = LOCAL_SHARE,
  ) {
    this.thread = new RequestThread(entry, {
      name: "the settle thread",
      role: ROLE,
      heapMb: HEAP_MB,
      youngMb: YOUNG_GENERATION_MB,
      timeoutMs,
      idleStopMs: IDLE_STOP_MS,
    });
  }

  readonly settle: SettleBatch = async (queued) => {
    const split = queued.length - Math.floor(queued.length * this.localShare);
    const there = this.inThread(queued.slice(0, split));
    // Awaited below, unless settling the digest thread's share throws first.
    there.catch(() => undefined);
    const here = split < queued.length ? await this.local(queued.slice(split)) : [];
    return [...(await there), ...here];
  };

  close(): Promise<void> {
    return this.thread.close();
  }

  private async inThread(queued: readonly QueuedEnvelope[]): Promise<Settled[]> {
    try {
      const settled = await this.thread.ask(queued);
      if (settled.length !== queued.length) throw new Error(`settled ${settled.length} of ${queued.length} envelopes`);
      for (const [i, s] of settled.entries()) s.letter.body = queued[i]!.body;
      return settled;
    } catch (error) {
      log("warn", "the settle thread did not settle a batch; the digest thread settles it", {
        error: error instanceof Error ? error.message : String(error),
      });
      return this.local(queued);
    }
  }
}
