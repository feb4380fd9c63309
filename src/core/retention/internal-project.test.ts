import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "../projects/create-project";
import { findInternalProjectId } from "../selfmon/internal-project";
import { runRetention } from "./run";
import { encodePayload } from "../storage/payload";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const AGES = [3, 10, 30, 120];

describe.each(DIALECTS)("runRetention with a shorter horizon for the internal project on %s", (dialect) => {
  let store: TestStore;
  let internal = 0;
  let user = 0;

  /** Spans, events, outcomes and issue hours of one project, one of each per age in days; `round` keeps keys apart. */
  async function seed(projectId: number, round = 1) {
    const issue = await store.db
      .insertInto("issues")
      .values({
        project_id: projectId,
        short_number: round,
        type: "error",
        title: "E",
        culprit: "",
        level: "error",
        metadata: "{}",
        status: "unresolved",
        substatus: "ongoing",
        first_seen: NOW - 200 * DAY,
        last_seen: NOW,
        times_seen: AGES.length,
        user_count: 0,
        resolved_next_release: 0,
        grouping_config: "test",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [i, age] of AGES.entries()) {
      const ms = NOW - age * DAY;
      const id = `${projectId}${round}${i}`.padStart(16, "0");
      await store.db
        .insertInto("spans")
        .values({
          project_id: projectId,
          trace_id: id.repeat(2),
          span_id: id,
          parent_span_id: null,
          segment_id: null,
          name: "GET /",
          op: "http.server",
          status: "ok",
          start_timestamp: ms / 1000 - 1,
          timestamp: ms / 1000,
          data: "{}",
        })
        .execute();
      await store.db
        .insertInto("events")
        .values({
          project_id: projectId,
          issue_id: issue.id,
          grouping_hash: "h",
          event_id: id.repeat(2),
          type: "event",
          timestamp: ms / 1000,
          received_at: ms,
          level: "error",
          title: "E",
          release: null,
          environment: null,
          trace_id: null,
          data: encodePayload("{}"),
        })
        .execute();
      const hour = Math.floor(ms / HOUR) * HOUR + round; // distinct keys per round, same day
      await store.db
        .insertInto("outcomes")
        .values({ project_id: projectId, hour, category: "error", outcome: "accepted", reason: "", quantity: 1 })
        .execute();
      await store.db.insertInto("issue_hourly").values({ issue_id: issue.id, hour, count: 1 }).execute();
    }
  }

  /** Age in whole days of what is left of a project, per table. */
  async function ages(projectId: number) {
    const days = (ms: number) => Math.round((NOW - ms) / DAY);
    const spans = await store.db
      .selectFrom("spans")
      .select("timestamp")
      .where("project_id", "=", projectId)
      .orderBy("timestamp", "desc")
      .execute();
    const events = await store.db
      .selectFrom("events")
      .select("received_at")
      .where("project_id", "=", projectId)
      .orderBy("received_at", "desc")
      .execute();
    const outcomes = await store.db
      .selectFrom("outcomes")
      .select("hour")
      .where("project_id", "=", projectId)
      .orderBy("hour", "desc")
      .execute();
    const hourly = await store.db
      .selectFrom("issue_hourly")
      .innerJoin("issues", "issues.id", "issue_hourly.issue_id")
      .select("issue_hourly.hour")
      .where("issues.project_id", "=", projectId)
      .orderBy("issue_hourly.hour", "desc")
      .execute();
    return {
      spans: spans.map((r) => days(r.timestamp * 1000)),
      events: events.map((r) => days(r.received_at)),
      outcomes: outcomes.map((r) => days(r.hour)),
      hourly: hourly.map((r) => days(r.hour)),
    };
  }
  const keep = (...kept: number[]) => ({ spans: kept, events: kept, outcomes: kept, hourly: kept });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store, { now: () => NOW });
    internal = (await findInternalProjectId(ctx)) ?? 0;
    await createOrganization({ ctx, input: { slug: "r" } });
    user = (await createProject({ ctx, input: { org: "r", slug: "p" } })).project.id;
    await seed(internal);
    await seed(user);
  });

  afterAll(async () => {
    await store.cleanup();
  });

  it("finds the internal project the migration created", () => {
    expect(internal).toBeGreaterThan(0);
    expect(internal).not.toBe(user);
  });

  it("deletes the internal project's data past its own horizon and other projects' past theirs", async () => {
    const ctx = testCtx(store, { now: () => NOW });
    const result = await runRetention(ctx, { days: 90, internalDays: 7, maxEventsPerIssue: 100, batch: 2 });
    expect(await ages(internal)).toEqual(keep(3));
    expect(await ages(user)).toEqual(keep(3, 10, 30));
    // Three internal spans and events (10, 30 and 120 days old), one of the user's (120 days).
    expect(result.deleted).toMatchObject({ spans: 4, events: 4 });
  });

  it("keeps the internal project's data longer than other projects' when its horizon is longer", async () => {
    await seed(internal, 2);
    const ctx = testCtx(store, { now: () => NOW });
    await runRetention(ctx, { days: 5, internalDays: 20, maxEventsPerIssue: 100, batch: 100 });
    expect(await ages(user)).toEqual(keep(3));
    expect(await ages(internal)).toEqual(keep(3, 3, 10));
  });
});
