import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WindowSample } from "../../src/core/issues/window-counts";
import type { IssueWindowCounts } from "../../src/core/ports/window-counts";

export interface WindowCountsWorld {
  counts: IssueWindowCounts;
  /** A new issue to count for. */
  issue(): Promise<number>;
  /** Adds events as the digest does: to minute buckets with their users, and to hour buckets. */
  add(samples: readonly Pick<WindowSample, "issueId" | "at" | "user">[]): Promise<void>;
  cleanup(): Promise<void>;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** What every IssueWindowCounts (src/core/ports/window-counts.ts) answers, whatever stores the buckets. */
export function windowCountsContract(name: string, make: () => Promise<WindowCountsWorld>): void {
  describe(`IssueWindowCounts contract: ${name}`, () => {
    let w: WindowCountsWorld;
    beforeAll(async () => {
      w = await make();
    });
    afterAll(() => w.cleanup());

    it("sums a span's minute or hour buckets, both ends included, with each user once", async () => {
      const id = await w.issue();
      const at = [0, 30_000, MINUTE, 2 * MINUTE, HOUR + MINUTE];
      await w.add(at.map((t, i) => ({ issueId: id, at: 10 * HOUR + t, user: i % 2 ? "a" : null })));
      await w.add([{ issueId: id, at: 10 * HOUR, user: "b" }]);
      const minutes = (from: number, to: number) => w.counts.counts(id, { unit: "minute", from: 10 * HOUR + from, to: 10 * HOUR + to });
      expect(await minutes(0, MINUTE)).toEqual({ events: 4, users: 2 });
      expect(await minutes(MINUTE, 2 * MINUTE)).toEqual({ events: 2, users: 1 });
      expect(await w.counts.counts(id, { unit: "hour", from: 10 * HOUR, to: 10 * HOUR })).toEqual({ events: 5, users: 2 });
      expect(await w.counts.counts(id, { unit: "hour", from: 10 * HOUR, to: 11 * HOUR })).toEqual({ events: 6, users: 2 });
      expect(await w.counts.counts(await w.issue(), { unit: "minute", from: 0, to: 20 * HOUR })).toEqual({ events: 0, users: 0 });
    });

    it("prunes the minute buckets that start before a time, and no hour buckets", async () => {
      const id = await w.issue();
      await w.add([0, MINUTE, 2 * MINUTE].map((t) => ({ issueId: id, at: 20 * HOUR + t, user: `u${t}` })));
      await w.counts.pruneMinutes(20 * HOUR + MINUTE);
      expect(await w.counts.counts(id, { unit: "minute", from: 20 * HOUR, to: 21 * HOUR })).toEqual({ events: 2, users: 2 });
      expect(await w.counts.counts(id, { unit: "hour", from: 20 * HOUR, to: 20 * HOUR })).toEqual({ events: 3, users: 3 });
    });
  });
}
