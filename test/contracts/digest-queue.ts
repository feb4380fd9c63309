import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyRecords } from "../../src/core/digest/records";
import type { Settled } from "../../src/core/digest/settled";
import { NOTHING_WRITTEN, type BatchLimits, type DigestQueue, type QueuedEnvelope } from "../../src/core/ports/digest-queue";

export interface DigestQueueFixture {
  queue: DigestQueue;
  projectId: number;
  /** Queues an envelope body as accept does. */
  enqueue(body: Buffer): Promise<void>;
  /** The dead letters kept, by their bodies. */
  deadLetters(): Promise<string[]>;
  cleanup(): Promise<void>;
}

const LIMITS: BatchLimits = { size: 3, maxBytes: 1_000, leaveDigestedRows: false };
/** Past any wait a deferral sets. */
const LATER = Date.now() + 3_600_000;

/** How a settle stub treats an envelope, named by its body. */
function settledAs(q: QueuedEnvelope, how: { failure?: string; deferred?: boolean; release?: string } = {}): Settled {
  const records = emptyRecords();
  if (how.release)
    records.sessions.push({
      projectId: q.projectId,
      hour: 0,
      release: how.release,
      environment: "production",
      status: "exited",
      quantity: 1,
    });
  return {
    records,
    failure: how.failure ?? null,
    letter: { projectId: q.projectId, keyId: q.keyId, receivedAt: q.receivedAt, body: q.body, itemTypes: [], scrubbing: {} },
    deferrals: q.deferrals,
    ...(how.deferred ? { deferred: true } : {}),
  };
}

const text = (q: QueuedEnvelope) => Buffer.from(q.body).toString();

/**
 * What the digest (src/core/digest/batch.ts) relies on from its queue (src/core/ports/digest-queue.ts):
 * batches in queue order and bounded, each written with its removal from the queue all or
 * nothing, dead letters and deferrals kept, deferred envelopes given back once their wait is over.
 * Several digesters at once are test/integration/digest-concurrency.test.ts.
 */
export function digestQueueContract(name: string, make: () => Promise<DigestQueueFixture>): void {
  describe(`${name}: digest queue`, () => {
    let f: DigestQueueFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    /** Digests the next batch with `how` per body; answers what was written and the bodies settled. */
    async function next(limits: BatchLimits, how: (body: string) => Parameters<typeof settledAs>[1] = () => ({})) {
      const seen: QueuedEnvelope[] = [];
      const written = await f.queue.digestNext(
        limits,
        async (queued) => {
          seen.push(...queued);
          return queued.map((q) => settledAs(q, how(text(q))));
        },
        () => 1_000,
      );
      return { written, bodies: seen.map(text), seen };
    }

    it("writes nothing when nothing is queued, and takes batches in queue order, at most `size` and `maxBytes` past the first", async () => {
      expect(await next(LIMITS)).toEqual({ written: NOTHING_WRITTEN, bodies: [], seen: [] });
      for (const body of ["a", "b", "c", "d", "x".repeat(2_000), "e"]) await f.enqueue(Buffer.from(body));
      const first = await next(LIMITS, (b) => (b === "b" ? { release: "shop@1" } : {}));
      expect(first.bodies).toEqual(["a", "b", "c"]);
      expect(first.seen[0]).toMatchObject({ projectId: f.projectId, deferrals: 0 });
      expect(first.written).toEqual({ taken: 3, setAside: 0, releases: [{ projectId: f.projectId, version: "shop@1" }] });
      // A body past maxBytes ends the batch before it, and is a batch of its own.
      expect((await next(LIMITS)).bodies).toEqual(["d"]);
      expect((await next(LIMITS)).bodies).toEqual(["x".repeat(2_000)]);
      expect((await next(LIMITS)).bodies).toEqual(["e"]);
      expect((await next(LIMITS)).written).toEqual(NOTHING_WRITTEN);
    });

    it("keeps a batch whose settling failed queued, and sets aside the envelopes settled as failures", async () => {
      await f.enqueue(Buffer.from("bad"));
      await f.enqueue(Buffer.from("good"));
      await expect(
        f.queue.digestNext(
          LIMITS,
          () => Promise.reject(new Error("settle failed")),
          () => 1_000,
        ),
      ).rejects.toThrow("settle failed");
      const again = await next(LIMITS, (b) => (b === "bad" ? { failure: "boom" } : {}));
      expect(again.bodies).toEqual(["bad", "good"]);
      expect(again.written).toEqual({ taken: 2, setAside: 1, releases: [] });
      expect(await f.deadLetters()).toEqual(["bad"]);
    });

    it("keeps a deferred envelope and gives it back, counted once more, when its wait is over", async () => {
      await f.enqueue(Buffer.from("slow"));
      expect((await next(LIMITS, () => ({ deferred: true }))).written).toEqual({ taken: 1, setAside: 0, releases: [] });
      expect((await next(LIMITS)).written).toEqual(NOTHING_WRITTEN);
      const settleNow = async (queued: readonly QueuedEnvelope[]) => queued.map((q) => settledAs(q));
      expect(await f.queue.digestDeferred(10, settleNow, () => 1_000)).toEqual(NOTHING_WRITTEN);
      const seen: QueuedEnvelope[] = [];
      const written = await f.queue.digestDeferred(
        10,
        async (queued) => {
          seen.push(...queued);
          return queued.map((q) => settledAs(q, { release: "shop@2" }));
        },
        () => LATER,
      );
      expect(seen.map((q) => [text(q), q.deferrals, q.projectId])).toEqual([["slow", 1, f.projectId]]);
      expect(written).toEqual({ taken: 1, setAside: 0, releases: [{ projectId: f.projectId, version: "shop@2" }] });
      expect(await f.queue.digestDeferred(10, settleNow, () => LATER)).toEqual(NOTHING_WRITTEN);
    });
  });
}
