import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { issueFrequency } from "../../src/core/issues/frequency";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 2026-03-10 15:30 UTC: the current hour is 15:00 and the current day 10 March.
const NOW = Date.UTC(2026, 2, 10, 15, 30);

describe.each(DIALECTS)("issue frequency buckets on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let issueId = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "t", owner: "dev@example.com" } });
    const projectId = (await createProject({ ctx, input: { org: "t", slug: "p" } })).project.id;
    const id = newEventId();
    const payload = {
      event_id: id,
      platform: "python",
      timestamp: Date.now() / 1000,
      exception: { values: [{ type: "E", value: "boom" }] },
    };
    const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    issueId = (await store.db.selectFrom("events").select("issue_id").where("event_id", "=", id).executeTakeFirstOrThrow()).issue_id!;
    // Replace the digest's own row with hours placed around the bucket edges.
    await store.db.deleteFrom("issue_hourly").where("issue_id", "=", issueId).execute();
    const hour = Math.floor(NOW / HOUR) * HOUR;
    const day = Math.floor(NOW / DAY) * DAY;
    const rows = [
      { hour, count: 4 }, // this hour, today
      { hour: hour - HOUR, count: 2 }, // previous hour, today
      { hour: hour - 23 * HOUR, count: 1 }, // oldest hour of the 24 h window (yesterday 16:00)
      { hour: hour - 24 * HOUR, count: 100 }, // just outside 24 h, inside yesterday
      { hour: day - DAY, count: 5 }, // yesterday 00:00
      { hour: day - 29 * DAY + 23 * HOUR, count: 7 }, // last hour of the oldest day in 30 d
      { hour: day - 30 * DAY + 23 * HOUR, count: 1000 }, // a day too old for 30 d
    ];
    await store.db
      .insertInto("issue_hourly")
      .values(rows.map((r) => ({ issue_id: issueId, ...r })))
      .execute();
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it("gives 24 hourly buckets ending with the current hour, zeros filled in", async () => {
    const f = await issueFrequency(ctx, issueId, NOW, "24h");
    expect(f.buckets).toHaveLength(24);
    expect(f.buckets.at(-1)).toEqual({ start: Date.UTC(2026, 2, 10, 15), count: 4 });
    expect(f.buckets.at(-2)?.count).toBe(2);
    expect(f.buckets[0]).toEqual({ start: Date.UTC(2026, 2, 9, 16), count: 1 });
    expect(f.buckets.reduce((s, b) => s + b.count, 0)).toBe(7);
  });

  it("sums hourly rows into 30 UTC days ending today", async () => {
    const f = await issueFrequency(ctx, issueId, NOW, "30d");
    expect(f.buckets).toHaveLength(30);
    expect(f.buckets.at(-1)).toEqual({ start: Date.UTC(2026, 2, 10), count: 6 });
    expect(f.buckets.at(-2)).toEqual({ start: Date.UTC(2026, 2, 9), count: 106 });
    expect(f.buckets[0]).toEqual({ start: Date.UTC(2026, 1, 9), count: 7 });
    expect(f.buckets.reduce((s, b) => s + b.count, 0)).toBe(119);
  });
});
