import { once } from "node:events";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestPathMessage } from "../../src/server/request-path-load";
import { openDigestBench, type DigestBench } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";

const ROOT = join(import.meta.dirname, "..", "..");
/** Twenty of the digest worker's batches (200 envelopes, src/server/digest-worker.ts). */
const BACKLOG = 4000;

/**
 * The built digest worker (dist/digest-worker.js) hears the main thread while it drains a
 * backlog: a batch is promises and synchronous SQLite calls, so a loop that never gives its event
 * loop a turn would see "stop" (or the request path turning idle, which lets the settle thread
 * help, decision 0030) only once the whole backlog is digested. With the request path busy, every
 * batch is settled in the digest thread itself, the case in which nothing else makes the loop wait.
 */
describe("the digest worker during a backlog", () => {
  let bench: DigestBench;

  beforeAll(async () => {
    bench = await openDigestBench("sqlite");
    await bench.enqueue(...Array.from({ length: BACKLOG }, (_, i) => errorEnvelope(newEventId(), `backlog error ${i % 7}`)));
  });
  afterAll(async () => {
    await bench?.store.cleanup();
  });

  it("stops between batches when told to, not after the backlog", async () => {
    const worker = new Worker(join(ROOT, "dist", "digest-worker.js"), {
      env: { ...process.env, ...bench.store.env, TELLTALE_LOG_LEVEL: "error" },
    });
    const exited = once(worker, "exit");
    const failed = new Promise<never>((_, reject) => {
      worker.on("error", reject);
      void exited.then(([code]) => reject(new Error(`the digest worker exited (${String(code)}) before it said it stopped`)));
    });
    failed.catch(() => undefined);
    try {
      const busy: RequestPathMessage = { type: "request-path", busy: true };
      worker.postMessage(busy);
      let digested = 0;
      const firstBatch = new Promise<void>((resolve) =>
        worker.on("message", (m: { type?: string; count?: number }) => {
          if (m.type !== "digested") return;
          digested += m.count ?? 0;
          resolve();
        }),
      );
      await Promise.race([firstBatch, failed]);
      worker.postMessage("stop");
      const stopped = new Promise<void>((resolve) => worker.on("message", (m: { type?: string }) => m.type === "stopped" && resolve()));
      await Promise.race([stopped, failed]);
      const stored = await bench.store.db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(digested).toBeGreaterThan(0);
      // It finished the batch in hand (and any that ran while "stop" was on its way: a busy test
      // machine may be slow to pass it) and left the rest queued. A loop that never turned its event
      // loop would have digested all twenty batches first.
      expect(Number(stored.n)).toBe(digested);
      expect(digested).toBeLessThanOrEqual(BACKLOG / 2);
    } finally {
      await worker.terminate();
      await exited;
    }
  }, 60_000);
});
