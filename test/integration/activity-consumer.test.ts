import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestBatch } from "../../src/core/digest/batch";
import { issueActivity } from "../../src/core/issues/queries";
import { changeIssues, mergeIssues, type IssueChange } from "../../src/core/issues/triage";
import { writeIssueChanges } from "../../src/db/issue-changes";
import { driveInProcessConsumers } from "../../src/core/outbox/in-process";
import { startAlertLoop } from "../../src/server/alert-loop";
import type { User } from "../../src/db/schema";
import { m0014 } from "../../src/db/migrations/0014_activity_consumer";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { DIGEST_OPTIONS, openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";
import { waitFor } from "../support/wait";

/**
 * Issue 11, item 3: the activity log is the outbox's first consumer. Each change becomes one
 * activity row with its actor and time, written when the consumer moves its position: never
 * twice, never skipped, and visible as soon as a triage action returns.
 */
describe.each(DIALECTS)("the activity log as the outbox's first consumer on %s", (dialect) => {
  let bench: DigestBench;
  let user: User;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    user = await bench.store.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
  });
  afterAll(() => bench.store.cleanup());

  async function digest(message: string, release = "shop@1", user = "a@example.com"): Promise<number> {
    const id = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, message, { release, user: { email: user } })]));
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow();
    return row.issue_id!;
  }
  const triage = (issueId: number, change: IssueChange) =>
    changeIssues({ ctx: bench.ctx, input: { projectIds: [bench.projectId], issueIds: [issueId], user, change } });
  /** A comment change committed without driving any consumer (as by a process that stopped, or whose drive failed). */
  const commitComment = (issueId: number, text: string) =>
    bench.store.db
      .transaction()
      .execute((trx) =>
        writeIssueChanges(trx, [
          { projectId: bench.projectId, issueId, kind: "commented", data: { text }, userId: user.id, at: Date.now() },
        ]),
      );
  const activity = async (issueId: number) =>
    (await bench.store.db.selectFrom("issue_activity").selectAll().where("issue_id", "=", issueId).orderBy("id").execute()).map((a) => ({
      type: a.type,
      user: a.user_id,
      data: JSON.parse(a.data) as Record<string, unknown>,
    }));

  it("shows each triage action as soon as it returns, with who did it; bookmarks are personal and not listed", async () => {
    const id = await digest("Payment declined");
    expect(await activity(id)).toEqual([]);
    await triage(id, { action: "resolveInNextRelease" });
    expect((await activity(id)).map((a) => a.type)).toEqual(["set_resolved_in_next_release"]);
    await triage(id, { action: "bookmark", on: true });
    await triage(id, { action: "comment", text: "**on it**" });
    await triage(id, { action: "assign", assigneeId: user.id });
    await triage(id, { action: "assign", assigneeId: null });
    await triage(id, { action: "ignore", count: 50 });
    await triage(id, { action: "resolveInRelease", release: "shop@3" });
    await triage(id, { action: "unresolve" });
    await triage(id, { action: "resolve" });
    expect(await activity(id)).toEqual([
      { type: "set_resolved_in_next_release", user: user.id, data: { current_release: "shop@1" } },
      { type: "note", user: user.id, data: { text: "**on it**" } },
      { type: "assigned", user: user.id, data: { assignee_id: user.id } },
      { type: "unassigned", user: user.id, data: { assignee_id: null } },
      { type: "set_ignored", user: user.id, data: { count: 50 } },
      { type: "set_resolved_in_release", user: user.id, data: { release: "shop@3" } },
      { type: "set_unresolved", user: user.id, data: {} },
      { type: "set_resolved", user: user.id, data: {} },
    ]);
    // The page reads the same rows, newest first, with the actor's name.
    const page = await issueActivity(bench.ctx, id);
    expect(page[0]).toMatchObject({ type: "set_resolved", user: { id: user.id } });
  });

  it("writes what the digest does to an issue: a regression, an escalation, an ignore whose time ran out", async () => {
    const regressed = await digest("Cart timeout", "shop@1");
    await triage(regressed, { action: "resolve" });
    // A regression is an event after the resolve: on a fast machine the next event's timestamp
    // (whole milliseconds) could otherwise fall in the resolve's own millisecond.
    const resolvedBy = Date.now();
    while (Date.now() <= resolvedBy) await new Promise((resolve) => setTimeout(resolve, 1));
    await digest("Cart timeout", "shop@2");
    expect((await activity(regressed)).map((a) => [a.type, a.user, a.data.release])).toEqual([
      ["set_resolved", user.id, undefined],
      ["set_regression", null, "shop@2"],
    ]);

    const escalated = await digest("Inventory drift");
    await triage(escalated, { action: "ignore", count: 1 });
    await digest("Inventory drift");
    expect((await activity(escalated)).map((a) => a.type)).toEqual(["set_ignored", "set_escalating"]);

    const snoozed = await digest("Coupon expired");
    await triage(snoozed, { action: "ignore", minutes: 1 });
    const later = { ...bench.ctx, now: () => Date.now() + 120_000 };
    const id = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, "Coupon expired", { release: "shop@1" })]));
    while ((await digestBatch(later, DIGEST_OPTIONS)) > 0);
    expect((await activity(snoozed)).map((a) => a.type)).toEqual(["set_ignored", "set_unignored"]);
    expect(
      (await bench.store.db.selectFrom("issues").select("substatus").where("id", "=", snoozed).executeTakeFirstOrThrow()).substatus,
    ).toBe("escalating");
  });

  it("names the merged issue's new home on both sides", async () => {
    const a = await digest("Merge me A");
    const b = await digest("Merge me B");
    await mergeIssues({ ctx: bench.ctx, input: { projectIds: [bench.projectId], issueIds: [a, b], user } });
    expect((await activity(b))[0]).toMatchObject({ type: "merge", user: user.id, data: { into: a } });
    expect((await activity(a))[0]).toMatchObject({ type: "merge", user: user.id, data: { merged: [b] } });
  });

  it("writes one row per change, however often it is driven, and catches up on changes another process left", async () => {
    const count = async () =>
      Number(
        (
          await bench.store.db
            .selectFrom("issue_activity")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await driveInProcessConsumers(bench.ctx)).toBe(0);
    expect(await count()).toBe(before);

    // Changes committed by a process that stopped before driving the consumer: the next digest batch writes them.
    const id = await digest("Left behind");
    await commitComment(id, "from elsewhere");
    expect((await activity(id)).map((a) => a.type)).toEqual([]);
    expect(await bench.drain()).toBe(0);
    expect(await activity(id)).toEqual([{ type: "note", user: user.id, data: { text: "from elsewhere" } }]);
    expect(await driveInProcessConsumers(bench.ctx)).toBe(0);
    expect(await count()).toBe(before + 1);
  });

  it("writes a change whose own drive failed within a tick of the web UI's loop, with no event to follow", async () => {
    const id = await digest("No event follows");
    // A triage committed its change, then its drive failed (a busy database): nothing drove the activity consumer.
    await commitComment(id, "left");
    expect(await activity(id)).toEqual([]);
    const loop = startAlertLoop(bench.ctx, 20);
    try {
      await waitFor(async () => (await activity(id)).length > 0, 10_000, "the loop to write the activity");
    } finally {
      await loop.stop();
    }
    expect(await activity(id)).toEqual([{ type: "note", user: user.id, data: { text: "left" } }]);
  });

  it("starts after the changes an older version had already written activity for (migration 0014)", async () => {
    const id = await digest("Upgraded");
    // As before the migration: no position for the consumer, and a change whose activity row exists.
    await bench.store.db.deleteFrom("outbox_positions").where("consumer", "=", "activity").execute();
    await bench.store.db.transaction().execute(async (trx) => {
      await writeIssueChanges(trx, [
        { projectId: bench.projectId, issueId: id, kind: "commented", data: { text: "old" }, userId: user.id, at: Date.now() },
      ]);
      await trx
        .insertInto("issue_activity")
        .values({ issue_id: id, user_id: user.id, type: "note", data: JSON.stringify({ text: "old" }), created_at: Date.now() })
        .execute();
    });
    await m0014.up(bench.store.db, dialect);
    await triage(id, { action: "comment", text: "new" });
    expect((await activity(id)).map((a) => a.data.text)).toEqual(["old", "new"]);
  });
});
