import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestQueue, QueueRow } from "../../src/core/ports/ingest-queue";

export interface IngestQueueFixture {
  queue: IngestQueue;
  /** A project rows may name. */
  projectId: number;
  /** What the queue holds, in id order. */
  queued(): Promise<{ id: number; receivedAt: number; endpoint: string; body: Buffer }[]>;
  cleanup(): Promise<void>;
}

export function ingestQueueContract(name: string, make: () => Promise<IngestQueueFixture>): void {
  describe(`IngestQueue: ${name}`, () => {
    let f: IngestQueueFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const row = (at: number, body = `{"n":${at}}`): QueueRow => ({
      project_id: f.projectId,
      key_id: 0,
      endpoint: at % 2 === 0 ? "envelope" : "store",
      received_at: at,
      body: Buffer.from(body),
    });
    const seen = async () => (await f.queued()).map((r) => [r.receivedAt, r.endpoint, r.body.toString()]);

    it("appends rows in order, every byte of their bodies, and nothing for no rows", async () => {
      const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await f.queue.append([row(1), row(2), { ...row(3), body: every }]);
      await f.queue.append([]);
      const queued = await f.queued();
      expect(queued.map((r) => [r.receivedAt, r.endpoint])).toEqual([
        [1, "store"],
        [2, "envelope"],
        [3, "store"],
      ]);
      expect(Buffer.compare(queued[2]?.body ?? Buffer.alloc(0), every)).toBe(0);
    });

    it("forgets rows up to an id and appends others in one step, or only forgets", async () => {
      const [, second] = await f.queued();
      await f.queue.forgetAndAppend(second?.id ?? 0, [row(4), row(5)]);
      expect((await seen()).map(([at]) => at)).toEqual([3, 4, 5]);
      const last = (await f.queued()).at(-1);
      await f.queue.forgetAndAppend(last?.id ?? 0, []);
      expect(await seen()).toEqual([]);
    });

    it("tells a full disk apart from other failures, and a plain failure is not busy", () => {
      expect(f.queue.isFull(Object.assign(new Error("no space"), { code: "ENOSPC" }))).toBe(true);
      expect(f.queue.isFull(new Error("boom"))).toBe(false);
      expect(f.queue.isBusy(new Error("boom"))).toBe(false);
    });

    it("gives every freed page back and empties its log when nothing reads it", async () => {
      await f.queue.append(Array.from({ length: 8 }, (_, i) => row(10 + i, "x".repeat(64 * 1024))));
      const last = (await f.queued()).at(-1);
      await f.queue.forgetAndAppend(last?.id ?? 0, []);
      await f.queue.givePagesBack(await f.queue.freePages());
      expect(await f.queue.freePages()).toBe(0);
      expect(await f.queue.truncateLog()).toBe(true);
    });
  });
}
