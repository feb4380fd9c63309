import { type EventLoopUtilization, performance } from "node:perf_hooks";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { settings } from "../config/settings";
import { createCtx } from "../db/create-ctx";
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
 * The digest's CPU work in a second thread: parsing, normalizing, enriching,
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
 * The share of each batch the digest thread settles itself, its tail, when settling starts: with
 * the batch before it to write (and the records of this thread's share to take in), the digest
 * thread should finish its part about when the settle thread finishes the rest. Where that is
 * depends on the machine: 0.3 was worked out on one two-core machine from the split of settling
 * and writing; on another (`npm run bench:digest -- --kind mix --threads`) 0.5 drained fastest,
 * while 0.3 left the digest thread waiting for much of each batch and the drain no faster than in
 * one thread. So the share then follows the two threads' load.
 */
export const LOCAL_SHARE = 0.4;

/** How the share moves (`ThreadSettler.rebalance`). */
export interface ShareBalance {
  /** Compare the two threads' event-loop utilization once this long has passed, at a batch's start. */
  everyMs: number;
  /** Move the share by this much when one thread was busier than the other by more than `margin`. */
  step: number;
  margin: number;
  min: number;
  max: number;
}

const SHARE_BALANCE: ShareBalance = { everyMs: 250, step: 0.05, margin: 0.05, min: 0.1, max: 0.8 };

/** A gap between batches past which the threads' utilization says nothing about the split. */
const BALANCE_GAP_MS = 2_000;

interface BalanceReading {
  at: number;
  here: EventLoopUtilization;
  thread: object;
  there: EventLoopUtilization;
}

export interface ThreadSettlerOptions {
  timeoutMs?: number;
  /** The digest thread's share at first (`LOCAL_SHARE`). */
  localShare?: number;
  /** How the share follows the threads' load; false keeps `localShare` as it is. */
  balance?: ShareBalance | false;
}

/**
 * The digest thread's side: a SettleBatch whose work runs mostly in the settle thread, the
 * batch's last `localShare` settled by `local` meanwhile, and all of it by `local` when the thread
 * does not settle its part. The share follows the two threads' event-loop utilization: when the
 * settle thread was busier than the digest thread, the digest thread takes more of each batch,
 * and less in the opposite case.
 */
export class ThreadSettler {
  private readonly thread: RequestThread<readonly QueuedEnvelope[], Settled[]>;
  private share: number;
  private readonly balance: ShareBalance | false;
  private reading: BalanceReading | null = null;

  constructor(
    entry: URL | string,
    private readonly local: SettleBatch,
    options: ThreadSettlerOptions = {},
  ) {
    this.share = options.localShare ?? LOCAL_SHARE;
    this.balance = options.balance ?? SHARE_BALANCE;
    this.thread = new RequestThread(entry, {
      name: "the settle thread",
      role: ROLE,
      heapMb: HEAP_MB,
      youngMb: YOUNG_GENERATION_MB,
      timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      idleStopMs: IDLE_STOP_MS,
    });
  }

  /** The digest thread's share of the next batch. */
  get localShare(): number {
    return this.share;
  }

  readonly settle: SettleBatch = async (queued) => {
    this.rebalance();
    const split = queued.length - Math.floor(queued.length * this.share);
    const there = this.inThread(queued.slice(0, split));
    // Awaited below, unless settling the digest thread's share throws first.
    there.catch(() => undefined);
    const here = split < queued.length ? await this.local(queued.slice(split)) : [];
    return [...(await there), ...here];
  };

  /**
   * Moves the share toward the thread that was less busy since the last reading. A reading is
   * taken at a batch's start, so each spans whole batches of both threads; one across a long
   * gap (the request path was busy and this thread settled alone, or the queue was empty) or a
   * new settle thread only starts the next comparison.
   */
  private rebalance(): void {
    if (!this.balance) return;
    const now = performance.now();
    const previous = this.reading;
    if (previous && now - previous.at < this.balance.everyMs) return;
    const there = this.thread.eventLoopUtilization();
    if (!there) return;
    const here = performance.eventLoopUtilization();
    this.reading = { at: now, here, thread: there.thread, there: there.utilization };
    if (!previous || previous.thread !== there.thread || now - previous.at > this.balance.everyMs + BALANCE_GAP_MS) return;
    const busyHere = performance.eventLoopUtilization(here, previous.here).utilization;
    const busyThere = performance.eventLoopUtilization(there.utilization, previous.there).utilization;
    const { step, margin, min, max } = this.balance;
    if (busyThere - busyHere > margin) this.share = Math.min(max, this.share + step);
    else if (busyHere - busyThere > margin) this.share = Math.max(min, this.share - step);
  }

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
