import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { startApiServer } from "../support/api-server";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

// Discover as Grafana's Sentry data source asks for it (pkg/sentry/events.go, events_stats.go).
describe.each(DIALECTS)("Discover's events and events-stats on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let token: string;
  let projectId = 0;
  // Whole hours, so the buckets are known: two events in the first hour, one in the second.
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
  const zoneless = (ms: number) => new Date(ms).toISOString().slice(0, 19);

  async function ingest(type: string, at: number, extra: Record<string, unknown> = {}) {
    const eventId = newEventId();
    const payload = {
      event_id: eventId,
      platform: "node",
      level: "error",
      timestamp: at / 1000,
      release: "api@1.0.0",
      exception: { values: [{ type, value: "boom" }] },
      ...extra,
    };
    const body = buildEnvelope({ event_id: eventId }, [{ type: "event", payload: JSON.stringify(payload) }]);
    await store.queue
      .insertInto("ingest_queue")
      .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
      .execute();
  }

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "acme", slug: "api", platform: "node" } })).project.id;
    ({ token } = await createToken({ ctx, input: { user: "owner@example.com" } }));
    await ingest("TimeoutError", hour + 60_000);
    await ingest("TimeoutError", hour + 120_000, { environment: "staging" });
    await ingest("ValueError", hour + 3_600_000 + 60_000, { level: "warning" });
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    api = await startApiServer(ctx);
  });

  afterAll(async () => {
    await api.close();
    await store.cleanup();
  });

  const get = async (path: string, params: [string, string][]) => {
    const range: [string, string][] = [
      ["start", zoneless(hour)],
      ["end", zoneless(hour + 3 * 3_600_000)],
    ];
    const res = await fetch(`${api.base}/api/0/organizations/acme/${path}/?${new URLSearchParams([...range, ...params])}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, link: res.headers.get("link") ?? "" };
  };

  it("answers a table grouped by the plain fields, keyed by the field strings", async () => {
    const { status, body } = await get("events", [
      ["field", "title"],
      ["field", "count()"],
      ["field", "last_seen()"],
      ["sort", "-count()"],
    ]);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { title: "TimeoutError: boom", "count()": 2, "last_seen()": new Date(hour + 120_000).toISOString() },
      { title: "ValueError: boom", "count()": 1, "last_seen()": new Date(hour + 3_660_000).toISOString() },
    ]);
  });

  it("filters by the issue search syntax and pages by cursor", async () => {
    const filtered = await get("events", [
      ["field", "title"],
      ["field", "level"],
      ["field", "count()"],
      ["query", "level:warning"],
    ]);
    expect(filtered.body.data).toEqual([{ title: "ValueError: boom", level: "warning", "count()": 1 }]);
    const first = await get("events", [
      ["field", "id"],
      ["field", "timestamp"],
      ["sort", "timestamp"],
      ["per_page", "2"],
    ]);
    expect((first.body.data as unknown[]).length).toBe(2);
    expect(first.link).toContain('rel="next"; results="true"; cursor="0:2:0"');
    const next = await get("events", [
      ["field", "id"],
      ["field", "timestamp"],
      ["sort", "timestamp"],
      ["per_page", "2"],
      ["cursor", "0:2:0"],
    ]);
    expect(next.body.data).toMatchObject([{ timestamp: new Date(hour + 3_660_000).toISOString() }]);
  });

  it("refuses an unknown dataset, field or search key with a 400", async () => {
    expect(
      (
        await get("events", [
          ["field", "count()"],
          ["dataset", "spans"],
        ])
      ).status,
    ).toBe(400);
    expect((await get("events", [["field", "nope"]])).status).toBe(400);
    expect(
      (
        await get("events", [
          ["field", "count()"],
          ["query", "is:unresolved"],
        ])
      ).status,
    ).toBe(400);
    expect(
      (
        await get("events", [
          ["field", "count()"],
          ["dataset", "errors"],
        ])
      ).status,
    ).toBe(200);
  });

  it("answers events-stats in Sentry's three shapes", async () => {
    const h = hour / 1000;
    const one = await get("events-stats", [
      ["interval", "1h"],
      ["yAxis", "count()"],
      ["partial", "1"],
    ]);
    expect(one.body.data).toEqual([
      [h, [{ count: 2 }]],
      [h + 3600, [{ count: 1 }]],
      [h + 7200, [{ count: 0 }]],
    ]);
    const axes = await get("events-stats", [
      ["interval", "1h"],
      ["yAxis", "count()"],
      ["yAxis", "count_unique(title)"],
    ]);
    expect(Object.keys(axes.body).sort()).toEqual(["count()", "count_unique(title)"]);
    // Grafana always sends topEvents=10 and excludeOther=1.
    const top = await get("events-stats", [
      ["interval", "1h"],
      ["yAxis", "count()"],
      ["field", "title"],
      ["topEvents", "10"],
      ["excludeOther", "1"],
      ["partial", "1"],
    ]);
    expect(top.body["TimeoutError: boom"]).toMatchObject({
      order: 0,
      data: [
        [h, [{ count: 2 }]],
        [h + 3600, [{ count: 0 }]],
        [h + 7200, [{ count: 0 }]],
      ],
    });
    expect(top.body["ValueError: boom"]).toMatchObject({ order: 1 });
  });
});
