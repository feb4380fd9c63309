import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "../projects/create-project";
import { runRetention } from "./run";
import { encodePayload } from "../storage/payload";
import { planStatements } from "../../../test/support/query-plans";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);

describe.each(DIALECTS)("runRetention on %s", (dialect) => {
  let store: TestStore;
  let projectId = 0;
  let issueId = 0;
  /** An event `age` days old, of the issue given (null: none). */
  const eventRow = (id: string, age: number, issue: number | null) => ({
    project_id: projectId,
    issue_id: issue,
    grouping_hash: issue === null ? null : "h",
    event_id: id.padStart(32, "0"),
    type: "event",
    timestamp: (NOW - age * DAY) / 1000,
    received_at: NOW - age * DAY,
    level: "error",
    title: "E",
    release: null,
    environment: null,
    trace_id: null,
    data: encodePayload("{}"),
  });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store, { now: () => NOW });
    await createOrganization({ ctx, input: { slug: "r" } });
    projectId = (await createProject({ ctx, input: { org: "r", slug: "p" } })).project.id;
    const issue = await store.db
      .insertInto("issues")
      .values({
        project_id: projectId,
        short_number: 1,
        type: "error",
        title: "E",
        culprit: "",
        level: "error",
        metadata: "{}",
        status: "unresolved",
        substatus: "ongoing",
        first_seen: NOW - 200 * DAY,
        last_seen: NOW,
        times_seen: 8,
        user_count: 3,
        resolved_next_release: 0,
        grouping_config: "test",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    issueId = issue.id;
    // Eight events: three beyond 90 days, five within.
    const ages = [200, 150, 100, 30, 20, 10, 2, 1];
    await store.db
      .insertInto("events")
      .values(ages.map((age, i) => eventRow(`${i}`, age, issueId)))
      .execute();
    await store.db
      .insertInto("logs")
      .values([
        { project_id: projectId, timestamp: (NOW - 100 * DAY) / 1000, level: "info", body: "old", trace_id: null, data: "{}" },
        { project_id: projectId, timestamp: (NOW - DAY) / 1000, level: "info", body: "new", trace_id: null, data: "{}" },
      ])
      .execute();
  });

  afterAll(async () => {
    await store.cleanup();
  });

  it("deletes events and logs past the retention and the oldest events over the per-issue cap, keeping issue counts", async () => {
    const result = await runRetention(testCtx(store, { now: () => NOW }), { days: 90, maxEventsPerIssue: 3, batch: 2 });
    expect(result.deleted.events).toBe(3);
    expect(result.deleted.events_over_cap).toBe(2);
    expect(result.deleted.logs).toBe(1);
    const left = await store.db.selectFrom("events").select("received_at").where("issue_id", "=", issueId).orderBy("received_at").execute();
    expect(left.map((e) => (NOW - e.received_at) / DAY)).toEqual([10, 2, 1]);
    const issue = await store.db
      .selectFrom("issues")
      .select(["times_seen", "user_count"])
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    expect(issue).toEqual({ times_seen: 8, user_count: 3 });
    const logs = await store.db.selectFrom("logs").select("body").execute();
    expect(logs.map((l) => l.body)).toEqual(["new"]);
  });

  it("does nothing when everything is within retention", async () => {
    const result = await runRetention(testCtx(store, { now: () => NOW }), { days: 90, maxEventsPerIssue: 3, batch: 100 });
    expect(Object.values(result.deleted).every((n) => n === 0)).toBe(true);
  });

  it("deletes an old event that has no issue, and keeps a new one", async () => {
    await store.db
      .insertInto("events")
      .values([eventRow("o1", 120, null), eventRow("o2", 5, null)])
      .execute();
    const result = await runRetention(testCtx(store, { now: () => NOW }), { days: 90, maxEventsPerIssue: 3, batch: 100 });
    expect(result.deleted.events).toBe(1);
    const left = await store.db.selectFrom("events").select("event_id").where("issue_id", "is", null).execute();
    expect(left.map((e) => e.event_id)).toEqual(["o2".padStart(32, "0")]);
  });

  if (dialect === "sqlite") {
    it("finds old events and crowded issues through indexes, never by reading every stored event", async () => {
      const planned = await planStatements(store, async (db) => {
        await runRetention(testCtx({ ...store, db }), { days: 90, maxEventsPerIssue: 3, batch: 100 });
      });
      const onEvents = planned.filter((s) => /\bfrom "events"/i.test(s.sql));
      expect(onEvents.length).toBeGreaterThan(0);
      for (const s of onEvents) for (const step of s.steps) expect(step, s.sql).not.toMatch(/^SCAN events\b/);
    });

    it("finds every kind of old row through an index, for the internal project's horizon and everyone else's", async () => {
      const planned = await planStatements(store, async (db) => {
        await runRetention(testCtx({ ...store, db }), { days: 90, internalDays: 7, maxEventsPerIssue: 3, batch: 100 });
      });
      // Projects and issues are read whole: a row per project or issue, not per stored item.
      const scans = planned.flatMap((s) =>
        s.steps.filter((step) => /^SCAN (?!CONSTANT|projects\b|organizations\b|issues\b)/.test(step)).map((step) => `${step} in ${s.sql}`),
      );
      expect(scans).toEqual([]);
    });

    it("gives the space of deleted events back to the file system, a step at a time", async () => {
      // 24 × 256 KiB: more than one step's 4 MiB.
      await store.db
        .insertInto("events")
        .values(
          Array.from({ length: 24 }, (_, i) => ({
            project_id: projectId,
            issue_id: issueId,
            grouping_hash: "h",
            event_id: `big${i}`.padStart(32, "0"),
            type: "event",
            timestamp: (NOW - 300 * DAY) / 1000,
            received_at: NOW - 300 * DAY,
            level: "error",
            title: "E",
            release: null,
            environment: null,
            trace_id: null,
            data: Buffer.from("x".repeat(256 * 1024)),
          })),
        )
        .execute();
      const pragma = async (name: "page_count" | "freelist_count" | "page_size") =>
        Number((await sql.raw<Record<string, number>>(`pragma ${name}`).execute(store.db)).rows[0]![name]);
      const before = await pragma("page_count");
      const pageSize = await pragma("page_size");
      const result = await runRetention(testCtx(store, { now: () => NOW }), { days: 90, maxEventsPerIssue: 3, batch: 100 });
      expect(result.deleted.events).toBe(24);
      expect(await pragma("freelist_count")).toBe(0);
      // Nearly all of the 6 MiB went back, whatever the file's page size.
      expect((before - (await pragma("page_count"))) * pageSize).toBeGreaterThan(5.5 * 1024 * 1024);
    });
  }
});
