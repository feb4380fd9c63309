import { describe, expect, it } from "vitest";
import { GroupCommit } from "./group-commit";

describe("GroupCommit", () => {
  it("writes the rows added in one turn together and settles each after its write", async () => {
    const writes: number[][] = [];
    const gc = new GroupCommit<number>(async (rows) => {
      writes.push([...rows]);
    });
    const settled: number[] = [];
    const all = [1, 2, 3].map((n) => gc.add(n).then(() => settled.push(n)));
    expect(writes).toEqual([]);
    await Promise.all(all);
    expect(writes).toEqual([[1, 2, 3]]);
    expect(settled).toEqual([1, 2, 3]);
  });

  it("gathers rows that arrive during a write into the next group, at most maxRows each", async () => {
    const writes: number[][] = [];
    let release: () => void = () => {};
    const gc = new GroupCommit<number>(async (rows) => {
      writes.push([...rows]);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
    }, 2);
    const first = gc.add(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map((n) => gc.add(n));
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3], [4]]);
  });

  it("writes up to `concurrency` groups at once, each settling after its own write", async () => {
    const writes: number[][] = [];
    const releases: (() => void)[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const gc = new GroupCommit<number>(
      async (rows) => {
        writes.push([...rows]);
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise<void>((r) => releases.push(r));
        inFlight--;
      },
      2,
      2,
    );
    const settled: number[] = [];
    const all = [1, 2, 3, 4, 5, 6].map((n) => gc.add(n).then(() => settled.push(n)));
    for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
    // Two groups are being written; the third waits for one of them.
    expect(writes).toEqual([
      [1, 2],
      [3, 4],
    ]);
    releases[1]!();
    for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
    expect(settled).toEqual([3, 4]);
    expect(writes).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    releases[0]!();
    releases[2]!();
    await Promise.all(all);
    expect(mostInFlight).toBe(2);
    expect(settled.sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("fails only the request whose row cannot be written", async () => {
    const written: number[] = [];
    const gc = new GroupCommit<number>(async (rows) => {
      if (rows.includes(2)) throw new Error(`row 2 is bad (group of ${rows.length})`);
      written.push(...rows);
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => gc.add(n)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error("row 2 is bad (group of 1)"));
    expect(written).toEqual([1, 3]);
  });

  it("fails the whole group at once, without writing row by row, on an error that says nothing about any row", async () => {
    class Busy extends Error {}
    const calls: number[][] = [];
    const gc = new GroupCommit<number>(
      async (rows) => {
        calls.push([...rows]);
        throw new Busy("the store stayed busy");
      },
      128,
      1,
      (error) => error instanceof Busy,
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => gc.add(n)));
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Busy);
    expect(calls).toEqual([[1, 2, 3]]);
  });
});

describe("GroupCommit.nudge", () => {
  it("writes once with no rows when nothing is pending, and not again until nudged", async () => {
    const writes: number[][] = [];
    const gc = new GroupCommit<number>(async (rows) => {
      writes.push([...rows]);
    });
    gc.nudge();
    gc.nudge();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([[]]);
    await gc.add(7);
    expect(writes).toEqual([[], [7]]);
  });

  it("ignores a failing housekeeping write and still writes the next rows", async () => {
    let calls = 0;
    const written: number[] = [];
    const gc = new GroupCommit<number>(async (rows) => {
      calls++;
      if (rows.length === 0) throw new Error("housekeeping failed");
      written.push(...rows);
    });
    gc.nudge();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    await gc.add(1);
    expect(calls).toBe(2);
    expect(written).toEqual([1]);
  });
});
