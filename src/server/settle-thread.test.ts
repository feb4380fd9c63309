import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { emptyRecords } from "../core/digest/records";
import type { Settled } from "../core/digest/settled";
import type { QueuedEnvelope } from "../core/ports/digest-queue";
import { ThreadSettler } from "./settle-thread";

/**
 * A stand-in for settle-thread.js: settles each envelope into one outcome whose reason is its
 * body, sent back without the body as the real thread does; project 13 makes it throw, 66 exit,
 * 99 never answer.
 */
function standIn(): string {
  const file = join(mkdtempSync(join(tmpdir(), "telltale-settle-")), "thread.mjs");
  writeFileSync(
    file,
    `import { parentPort, workerData, threadId } from "node:worker_threads";
if (workerData.role !== "telltale-settle") throw new Error("wrong role");
parentPort.on("message", ({ id, request: queued }) => {
  const project = queued[0].projectId;
  if (project === 66) process.exit(3);
  if (project === 99) return;
  if (project === 13) return parentPort.postMessage({ id, error: "a bug" });
  const settled = queued.map((q) => ({
    records: { events: [], transactions: [], spans: [], logs: [], sessions: [], sessionMembers: [], feedback: [], checkIns: [], rawItems: [],
      outcomes: [{ projectId: q.projectId, category: "error", outcome: "accepted", reason: "thread " + threadId + ": " + Buffer.from(q.body).toString(), quantity: 1, at: q.receivedAt }] },
    failure: null,
    letter: { projectId: q.projectId, keyId: q.keyId, receivedAt: q.receivedAt, body: new Uint8Array(0), itemTypes: ["event"], scrubbing: {} },
    deferrals: 0,
  }));
  parentPort.postMessage({ id, answer: settled });
});`,
  );
  return file;
}

/** A stand-in that keeps its thread busy for `ms` per envelope, as settling does. */
function busyStandIn(ms: number): string {
  const file = join(mkdtempSync(join(tmpdir(), "telltale-settle-")), "thread.mjs");
  writeFileSync(
    file,
    `import { parentPort } from "node:worker_threads";
parentPort.on("message", ({ id, request: queued }) => {
  const until = performance.now() + ${ms} * queued.length;
  while (performance.now() < until);
  parentPort.postMessage({ id, answer: queued.map((q) => ({
    records: { events: [], transactions: [], spans: [], logs: [], sessions: [], sessionMembers: [], feedback: [], checkIns: [], rawItems: [],
      outcomes: [{ projectId: q.projectId, category: "error", outcome: "accepted", reason: "thread", quantity: 1, at: q.receivedAt }] },
    failure: null,
    letter: { projectId: q.projectId, keyId: q.keyId, receivedAt: q.receivedAt, body: new Uint8Array(0), itemTypes: [], scrubbing: {} },
    deferrals: 0,
  })) });
});`,
  );
  return file;
}

const queued = (projectId: number, ...bodies: string[]): QueuedEnvelope[] =>
  bodies.map((b, i) => ({ id: i + 1, projectId, keyId: 7, receivedAt: 1000 + i, body: Buffer.from(b), deferrals: 0 }));

/** The digest thread's own settling: marks what it settled as settled here. */
const local = async (batch: readonly QueuedEnvelope[]): Promise<Settled[]> =>
  batch.map((q) => {
    const records = emptyRecords();
    records.outcomes.push({
      projectId: q.projectId,
      category: "error",
      outcome: "accepted",
      reason: "local",
      quantity: 1,
      at: q.receivedAt,
    });
    return {
      records,
      failure: null,
      letter: { projectId: q.projectId, keyId: q.keyId, receivedAt: q.receivedAt, body: q.body, itemTypes: [], scrubbing: {} },
      deferrals: 0,
    };
  });

const reasons = (settled: Settled[]) => settled.map((s) => s.records.outcomes[0]!.reason.replace(/^thread \d+/, "thread"));

describe("settling in the settle thread", () => {
  let settler: ThreadSettler | null = null;
  afterEach(async () => {
    await settler?.close();
    settler = null;
  });

  it("settles a batch in the thread and gives each envelope its body back", async () => {
    settler = new ThreadSettler(standIn(), local, { localShare: 0, balance: false });
    const batch = queued(1, "first", "second");
    const settled = await settler.settle(batch);
    expect(reasons(settled)).toEqual(["thread: first", "thread: second"]);
    expect(settled.map((s) => Buffer.from(s.letter.body).toString())).toEqual(["first", "second"]);
    // One thread for batch after batch.
    const again = await settler.settle(queued(1, "third"));
    expect(again[0]!.records.outcomes[0]!.reason.match(/^thread \d+/)?.[0]).toBe(
      settled[0]!.records.outcomes[0]!.reason.match(/^thread \d+/)?.[0],
    );
  });

  it("settles in the digest thread a batch the thread threw on, died on or never answered, and starts a new thread after", async () => {
    settler = new ThreadSettler(standIn(), local, { timeoutMs: 500, localShare: 0, balance: false });
    expect(reasons(await settler.settle(queued(13, "a")))).toEqual(["local"]);
    expect(reasons(await settler.settle(queued(66, "b")))).toEqual(["local"]);
    expect(reasons(await settler.settle(queued(99, "c")))).toEqual(["local"]);
    expect(reasons(await settler.settle(queued(1, "d")))).toEqual(["thread: d"]);
  });

  it("settles the tail of each batch in the digest thread meanwhile, and keeps the batch's order", async () => {
    settler = new ThreadSettler(standIn(), local, { localShare: 0.3, balance: false });
    const bodies = Array.from({ length: 10 }, (_, i) => `e${i}`);
    const settled = await settler.settle(queued(1, ...bodies));
    expect(reasons(settled)).toEqual([...bodies.slice(0, 7).map((b) => `thread: ${b}`), "local", "local", "local"]);
    expect(settled.map((s) => Buffer.from(s.letter.body).toString())).toEqual(bodies);
    // A single envelope is the thread's.
    expect(reasons(await settler.settle(queued(1, "one")))).toEqual(["thread: one"]);
  });

  /** Settles 40 batches of 20 with the digest thread taking `localMs` and the thread `threadMs` per envelope. */
  async function shareAfterBatches(threadMs: number, localMs: number): Promise<{ share: number; locally: number }> {
    const busyLocal = (batch: readonly QueuedEnvelope[]) => {
      const until = performance.now() + localMs * batch.length;
      while (performance.now() < until);
      return local(batch);
    };
    settler = new ThreadSettler(busyStandIn(threadMs), busyLocal, {
      localShare: 0.4,
      balance: { everyMs: 30, step: 0.05, margin: 0.05, min: 0.1, max: 0.8 },
    });
    let last: Settled[] = [];
    for (let i = 0; i < 40; i++) last = await settler.settle(queued(1, ...Array.from({ length: 20 }, (_, n) => `e${n}`)));
    return { share: settler.localShare, locally: reasons(last).filter((r) => r === "local").length };
  }

  it("gives the digest thread more of each batch while the settle thread is the busier one", async () => {
    const { share, locally } = await shareAfterBatches(2, 0.25);
    expect(share).toBeGreaterThan(0.6);
    expect(locally).toBeGreaterThan(8);
  });

  it("gives the settle thread more of each batch while the digest thread is the busier one", async () => {
    const { share, locally } = await shareAfterBatches(0.25, 2);
    expect(share).toBeLessThan(0.2);
    expect(locally).toBeLessThan(8);
  });

  it("settles in the digest thread when the thread cannot start at all", async () => {
    settler = new ThreadSettler(join(tmpdir(), "no-such-settle-thread.mjs"), local);
    expect(reasons(await settler.settle(queued(1, "a")))).toEqual(["local"]);
  });
});
