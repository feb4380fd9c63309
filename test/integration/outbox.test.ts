import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeIssues } from "../../src/core/issues/triage";
import type { IssueChangeRecord, NewIssueChange } from "../../src/core/outbox/changes";
import { writeIssueChanges } from "../../src/db/issue-changes";
import { consumeAll, consumeOnce, type InDatabaseConsumer, type OutsideConsumer } from "../../src/core/outbox/consume";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

/**
 * Issue 11, item 3: every issue change is written to the outbox in the transaction that makes
 * it; consumers read the changes in order, exactly once when their effects are in the
 * database, at least once (with stable ids) when they are not, and one process at a time.
 */
describe.each(DIALECTS)("the issue-change outbox on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  /** An outside consumer that remembers what it was given. */
  function recorder(name: string): OutsideConsumer & { seen: IssueChangeRecord[] } {
    const seen: IssueChangeRecord[] = [];
    return { name, inDatabase: false, seen, deliver: async (changes) => void seen.push(...changes) };
  }

  /** An in-database consumer whose effect is one activity row per change, naming the change. */
  function effects(name: string, failAfter = Infinity): InDatabaseConsumer {
    let handled = 0;
    return {
      name,
      inDatabase: true,
      async handle(changes, ports) {
        for (const c of changes) {
          if (handled++ >= failAfter) throw new Error("the consumer crashed mid-batch");
          await ports.activity.append([{ issueId: c.issueId, userId: null, type: `effect:${name}`, data: { seq: c.seq }, at: c.at }]);
        }
      },
    };
  }
  const effectSeqs = async (name: string) =>
    (await bench.store.db.selectFrom("issue_activity").select("data").where("type", "=", `effect:${name}`).execute())
      .map((r) => (JSON.parse(r.data) as { seq: number }).seq)
      .sort((a, b) => a - b);

  async function digest(message: string, release: string): Promise<number> {
    const id = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, message, { release })]));
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow();
    return row.issue_id!;
  }

  it("records what the digest and people do to an issue, in order, with the actor", async () => {
    const log = recorder("log");
    const user = await bench.store.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    const issueId = await digest("Checkout failed", "shop@1");
    const triage = (change: Parameters<typeof changeIssues>[0]["input"]["change"]) =>
      changeIssues({ ctx: bench.ctx, input: { projectIds: [bench.projectId], issueIds: [issueId], user, change } });
    await triage({ action: "resolve" });
    await digest("Checkout failed", "shop@2");
    await triage({ action: "comment", text: "looking" });
    await triage({ action: "assign", assigneeId: user.id });
    await triage({ action: "bookmark", on: true });
    await triage({ action: "ignore", count: 100 });
    expect(await consumeAll(bench.ctx, log)).toBe(6);
    expect(log.seen.map((c) => c.kind)).toEqual(["created", "resolved", "regressed", "commented", "assigned", "ignored"]);
    expect(log.seen.every((c) => c.issueId === issueId && c.projectId === bench.projectId)).toBe(true);
    expect(log.seen.map((c) => c.userId)).toEqual([null, user.id, null, user.id, user.id, user.id]);
    expect(log.seen.find((c) => c.kind === "regressed")?.data).toMatchObject({ release: "shop@2" });
    const seqs = log.seen.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(log.seen.map((c) => c.id)).size).toBe(6);
    // Caught up: nothing more until something changes.
    expect(await consumeOnce(bench.ctx, log)).toBe(0);
  });

  it("gives an in-database consumer each change exactly once, across a crash mid-batch", async () => {
    const total = Number((await bench.store.db.selectFrom("outbox_counter").select("seq").executeTakeFirstOrThrow()).seq);
    await expect(consumeOnce(bench.ctx, effects("once", 3))).rejects.toThrow(/crashed/);
    // The crash rolled back the effects with the position: nothing half done.
    expect(await effectSeqs("once")).toEqual([]);
    expect(await consumeAll(bench.ctx, effects("once"), 4)).toBe(total);
    expect(await effectSeqs("once")).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it("gives an outside consumer the same changes again, with the same ids, until it succeeds", async () => {
    let attempts = 0;
    const ids: string[][] = [];
    const flaky: OutsideConsumer = {
      name: "webhook",
      inDatabase: false,
      deliver: async (changes) => {
        ids.push(changes.map((c) => c.id));
        if (attempts++ === 0) throw new Error("the receiver answered 503");
      },
    };
    await expect(consumeOnce(bench.ctx, flaky, 2)).rejects.toThrow(/503/);
    expect(await consumeOnce(bench.ctx, flaky, 2)).toBe(2);
    expect(ids[1]).toEqual(ids[0]);
    expect(await consumeOnce(bench.ctx, flaky, 2)).toBe(2);
    expect(ids[2]![0]).not.toBe(ids[1]![0]);
  });

  it("neither repeats nor skips a change while writers and two consumers race", async () => {
    const issueId = await digest("Inventory sync failed", "shop@1");
    const before = Number((await bench.store.db.selectFrom("outbox_counter").select("seq").executeTakeFirstOrThrow()).seq);
    const change = (i: number): NewIssueChange => ({
      projectId: bench.projectId,
      issueId,
      kind: "commented",
      data: { i },
      userId: null,
      at: Date.now(),
    });
    let written = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < 25; i++) {
        const n = 1 + ((i + w) % 3);
        await bench.store.db.transaction().execute(async (trx) => {
          await writeIssueChanges(
            trx,
            Array.from({ length: n }, (_, k) => change(w * 1000 + i * 10 + k)),
          );
        });
        written += n;
      }
    };
    let writing = true;
    const consumer = effects("race");
    const reader = async () => {
      while (writing) await consumeOnce(bench.ctx, consumer, 7);
    };
    const readers = [reader(), reader()];
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    await Promise.all(readers);
    await consumeAll(bench.ctx, consumer, 7);
    expect(await effectSeqs("race")).toEqual(Array.from({ length: before + written }, (_, i) => i + 1));
  });
});
