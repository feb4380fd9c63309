import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergeIssues } from "../../src/core/issues/triage";
import { countsInWindow, pruneMinuteCounts } from "../../src/core/issues/window-counts";
import { buildEnvelope, eventItem, newEventId } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Issue 11, item 3: per-minute counts of events and distinct users per issue, so that
 * frequency conditions over 1, 5, 15 and 60 minutes, a day and a week read buckets, not events.
 */
describe.each(DIALECTS)("issue counts over a window on %s", (dialect) => {
  let bench: DigestBench;
  // An hour boundary three hours ago: events are placed at known offsets from it.
  const base = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
  let issueId = 0;

  async function send(message: string, offsetMs: number, user: string): Promise<number> {
    const id = newEventId();
    await bench.enqueue(
      buildEnvelope({ event_id: id }, [eventItem(id, message, { timestamp: (base + offsetMs) / 1000, user: { id: user } })]),
    );
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow();
    return row.issue_id!;
  }

  beforeAll(async () => {
    bench = await openDigestBench(dialect);
    issueId = await send("Checkout failed", 10_000, "u1");
    for (const [offset, user] of [
      [70_000, "u2"],
      [70_000, "u1"],
      [5 * MINUTE + 1_000, "u3"],
      [30 * MINUTE, "u1"],
      [2 * HOUR, "u4"],
    ] as const) {
      expect(await send("Checkout failed", offset, user)).toBe(issueId);
    }
  });
  afterAll(() => bench.store.cleanup());

  it("counts events and distinct users in minute windows, ignoring what came after `now`", async () => {
    const now = base + 5 * MINUTE + 30_000;
    expect(await countsInWindow(bench.ctx, issueId, 1, now)).toEqual({ events: 1, users: 1 });
    expect(await countsInWindow(bench.ctx, issueId, 5, now)).toEqual({ events: 3, users: 3 });
    expect(await countsInWindow(bench.ctx, issueId, 15, now)).toEqual({ events: 4, users: 3 });
    expect(await countsInWindow(bench.ctx, issueId, 60, now)).toEqual({ events: 4, users: 3 });
  });

  it("counts a day from minute buckets and a week from hour buckets", async () => {
    const now = base + 2 * HOUR + 30_000;
    expect(await countsInWindow(bench.ctx, issueId, 60, now)).toEqual({ events: 1, users: 1 });
    expect(await countsInWindow(bench.ctx, issueId, 24 * 60, now)).toEqual({ events: 6, users: 4 });
    expect(await countsInWindow(bench.ctx, issueId, 7 * 24 * 60, now)).toEqual({ events: 6, users: 4 });
  });

  it("moves the counts with a merge", async () => {
    const other = await send("Payment failed", 90 * MINUTE, "u5");
    expect(other).not.toBe(issueId);
    const user = await bench.store.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    await mergeIssues({ ctx: bench.ctx, input: { projectIds: [bench.projectId], issueIds: [issueId, other], user } });
    const survivor = (await bench.store.db.selectFrom("issues").select("id").where("merged_into_id", "is", null).execute()).map(
      (r) => r.id,
    );
    expect(survivor).toHaveLength(1);
    const now = base + 2 * HOUR + 30_000;
    expect(await countsInWindow(bench.ctx, survivor[0]!, 24 * 60, now)).toEqual({ events: 7, users: 5 });
  });

  it("drops minute buckets after a day and keeps the hour buckets", async () => {
    const later = base + 3 * 24 * HOUR;
    await pruneMinuteCounts(bench.ctx, later);
    expect(await bench.store.db.selectFrom("issue_minutes").select("issue_id").execute()).toEqual([]);
    expect(await bench.store.db.selectFrom("issue_minute_users").select("issue_id").execute()).toEqual([]);
    const survivor = await bench.store.db.selectFrom("issues").select("id").where("merged_into_id", "is", null).executeTakeFirstOrThrow();
    expect(await countsInWindow(bench.ctx, survivor.id, 7 * 24 * 60, later)).toEqual({ events: 7, users: 5 });
  });
});
