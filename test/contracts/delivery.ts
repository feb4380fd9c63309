import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryQueue, DeliveryState } from "../../src/core/ports/delivery";

type Kind = { id: string; createdAt: number };

export interface DeliveryFixture<N extends Kind> {
  queue: DeliveryQueue<N>;
  /** A new notification of the queue's kind, with its own fields filled in. */
  notification(id: string, createdAt: number): N;
  cleanup(): Promise<void>;
}

const LEASE = 60_000;
const FAR = 10 ** 13;

/**
 * What every notification table's delivery (src/core/ports/delivery.ts) does: due from its
 * creation, claimed by one sender for a lease, oldest first, and moved on by each attempt.
 */
export function deliveryQueueContract<N extends Kind>(name: string, make: () => Promise<DeliveryFixture<N>>): void {
  describe(`${name}: delivery`, () => {
    let f: DeliveryFixture<N>;
    let n = 0;
    const fresh = (createdAt: number) => f.notification(`${name}-${++n}`, createdAt);
    const pending = (note: N): N & DeliveryState => ({
      ...note,
      status: "pending",
      attempts: 0,
      nextAttemptAt: note.createdAt,
      lastError: null,
      messageId: null,
      sentAt: null,
    });

    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());
    // Each case starts with nothing due: what one leaves pending is sent.
    afterEach(async () => {
      for (const left of await f.queue.claimDue(FAR, 10_000, 0))
        await f.queue.recordAttempt(
          { notificationId: left.id, attempt: left.attempts + 1, status: "sent", error: null, at: FAR },
          { status: "sent", nextAttemptAt: FAR, messageId: null, sentAt: FAR },
        );
    });

    it("inserts notifications due from their creation, once per id, and claims them oldest first as they were", async () => {
      const [a, b, c] = [fresh(2_000), fresh(1_000), fresh(3_000)];
      await f.queue.insertNotifications([a, b, c]);
      await f.queue.insertNotifications([{ ...a, createdAt: 500 }]);
      await f.queue.insertNotifications([]);
      expect(await f.queue.anyDue(999)).toBe(false);
      expect(await f.queue.anyDue(1_000)).toBe(true);
      expect(await f.queue.claimDue(2_500, 10, LEASE)).toEqual([pending(b), pending(a)]);
      expect(await f.queue.claimDue(3_000, 10, LEASE)).toEqual([pending(c)]);
    });

    it("claims at most `limit`, and leaves what it claimed alone until the lease ends", async () => {
      const notes = [fresh(1_000), fresh(1_001), fresh(1_002)];
      await f.queue.insertNotifications(notes);
      expect((await f.queue.claimDue(2_000, 2, LEASE)).map((x) => x.id)).toEqual([notes[0]!.id, notes[1]!.id]);
      expect((await f.queue.claimDue(2_000, 10, LEASE)).map((x) => x.id)).toEqual([notes[2]!.id]);
      expect(await f.queue.anyDue(2_000 + LEASE - 1)).toBe(false);
      expect(await f.queue.claimDue(2_000 + LEASE - 1, 10, LEASE)).toEqual([]);
      expect((await f.queue.claimDue(2_000 + LEASE + 1, 10, LEASE)).map((x) => x.id)).toEqual(notes.map((x) => x.id));
    });

    it("records an attempt: a retry is due again at its time with the error kept, a sent one never again", async () => {
      const [retried, sent] = [fresh(1_000), fresh(1_001)];
      await f.queue.insertNotifications([retried, sent]);
      await f.queue.claimDue(1_500, 10, LEASE);
      await f.queue.recordAttempt(
        { notificationId: retried.id, attempt: 1, status: "failed", error: "refused", at: 1_500 },
        { status: "pending", nextAttemptAt: 5_000, messageId: null, sentAt: null },
      );
      await f.queue.recordAttempt(
        { notificationId: sent.id, attempt: 1, status: "sent", error: null, at: 1_500 },
        { status: "sent", nextAttemptAt: 1_500, messageId: "<m@test>", sentAt: 1_500 },
      );
      // The attempt ends the lease: the retry is due at its own time, not at the lease's end.
      expect(await f.queue.anyDue(4_999)).toBe(false);
      expect(await f.queue.claimDue(5_000, 10, LEASE)).toEqual([
        { ...pending(retried), attempts: 1, nextAttemptAt: 5_000, lastError: "refused" },
      ]);
      // Its lease over, the retry is due again; the sent one is not.
      expect((await f.queue.claimDue(FAR, 10, LEASE)).map((x) => x.id)).toEqual([retried.id]);
    });
  });
}
