import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssueChangeRecord } from "../../src/core/outbox/changes";
import type { OutboxStore, OutboxTxPorts } from "../../src/core/ports/outbox";

export interface OutboxFixture {
  outbox: OutboxStore;
  projectId: number;
  issueId: number;
  /** Writes `count` "commented" changes of the issue, data `{ i }` from `from` on, at time 1000 + i. */
  write(count: number, from: number): Promise<void>;
  /** Activity rows of `type`, oldest first, their data parsed. */
  activity(type: string): Promise<unknown[]>;
  cleanup(): Promise<void>;
}

export function outboxStoreContract(name: string, make: () => Promise<OutboxFixture>): void {
  describe(`OutboxStore: ${name}`, () => {
    let f: OutboxFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const now = () => 5000;
    /** A run that records its changes and writes one activity row of `type` per change. */
    const recording = (type: string, seen: IssueChangeRecord[] = []) => ({
      seen,
      run: async (changes: readonly IssueChangeRecord[], ports: OutboxTxPorts) => {
        seen.push(...changes);
        await ports.activity.append(changes.map((c) => ({ issueId: c.issueId, userId: null, type, data: { seq: c.seq }, at: c.at })));
      },
    });

    it("starts at no change, with no consumer placed, and runs nothing while there is none", async () => {
      expect(await f.outbox.head()).toBe(0);
      expect(await f.outbox.positions(["a", "b"])).toEqual(new Map());
      let ran = false;
      expect(await f.outbox.consume("a", 10, async () => void (ran = true), now)).toBe(0);
      expect(ran).toBe(false);
      expect(await f.outbox.positions(["a", "b"])).toEqual(new Map([["a", 0]]));
    });

    it("hands a consumer the changes after its position in order, a batch at a time, and moves it past them", async () => {
      await f.write(3, 0);
      expect(await f.outbox.head()).toBe(3);
      const a = recording("a");
      expect(await f.outbox.consume("a", 2, a.run, now)).toBe(2);
      expect(await f.outbox.consume("a", 2, a.run, now)).toBe(1);
      expect(await f.outbox.consume("a", 2, a.run, now)).toBe(0);
      expect(a.seen).toEqual(
        [1, 2, 3].map((seq) => ({
          seq,
          id: `issue-change-${seq}`,
          projectId: f.projectId,
          issueId: f.issueId,
          kind: "commented",
          data: { i: seq - 1 },
          userId: null,
          at: 1000 + seq - 1,
        })),
      );
      expect(await f.activity("a")).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
      expect(await f.outbox.positions(["a", "b"])).toEqual(new Map([["a", 3]]));
    });

    it("rolls back a run that throws, its writes and the position with it", async () => {
      const b = recording("b");
      const failing = async (changes: readonly IssueChangeRecord[], ports: OutboxTxPorts) => {
        await b.run(changes, ports);
        throw new Error("the consumer crashed");
      };
      await expect(f.outbox.consume("b", 10, failing, now)).rejects.toThrow(/crashed/);
      expect(await f.activity("b")).toEqual([]);
      expect(await f.outbox.positions(["b"])).toEqual(new Map([["b", 0]]));
      expect(await f.outbox.consume("b", 10, b.run, now)).toBe(3);
      expect(await f.activity("b")).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
    });

    it("never hands the same change to one consumer twice when two consume it at once", async () => {
      await f.write(6, 3);
      const c = recording("c");
      const taken = await Promise.all([f.outbox.consume("c", 4, c.run, now), f.outbox.consume("c", 4, c.run, now)]);
      const seqs = c.seen.map((x) => x.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(taken[0] + taken[1]).toBe(seqs.length);
      expect(seqs.every((s) => s <= 8)).toBe(true);
    });
  });
}
