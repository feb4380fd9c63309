import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { createToken } from "../../src/core/tokens/tokens";
import { setLogLevel } from "../../src/server/log";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { startApiServer } from "../support/api-server";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const HOUR = 3_600_000;

/** Two accepted errors ingested for real, and filtered ones an hour before through the port. */
describe.each(DIALECTS)("the stats web API on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let api: { base: string; close(): Promise<void> };
  let token: string;
  let web = 0;
  let other = 0;
  const thisHour = Math.floor(Date.now() / HOUR) * HOUR;

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    web = (await createProject({ ctx, input: { org: "acme", slug: "web", platform: "node" } })).project.id;
    other = (await createProject({ ctx, input: { org: "acme", slug: "other", platform: "node" } })).project.id;
    ({ token } = await createToken({ ctx, input: { user: "owner@example.com" } }));
    for (const id of [newEventId(), newEventId()]) {
      const payload = JSON.stringify({ event_id: id, platform: "node", level: "error", timestamp: Date.now() / 1000, message: "boom" });
      const body = buildEnvelope({ event_id: id }, [{ type: "event", payload }]);
      await store.queue
        .insertInto("ingest_queue")
        .values({ project_id: web, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
        .execute();
    }
    await digestBatch(ctx, { batchSize: 50, limits: DEFAULT_ENVELOPE_LIMITS });
    const filtered = { category: "error", outcome: "filtered", reason: "localhost", at: thisHour - HOUR } as const;
    await ctx.outcomes.record([
      { ...filtered, projectId: web, quantity: 3 },
      { ...filtered, projectId: other, quantity: 4 },
    ]);
    api = await startApiServer(ctx);
  });

  afterAll(async () => {
    await api.close();
    await store.cleanup();
  });

  const get = async (path: string) => {
    const res = await fetch(api.base + path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as never };
  };

  it("answers stats_v2 grouped by outcome and project, with Sentry's start, end, intervals and series", async () => {
    const { status, body } = await get(
      `/api/0/organizations/acme/stats_v2/?field=sum(quantity)&field=sum(times_seen)&groupBy=outcome&groupBy=project&category=error&statsPeriod=2h&interval=1h`,
    );
    expect(status).toBe(200);
    const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
    const answer = body as { start: string; end: string; intervals: string[]; groups: unknown[] };
    expect(answer.intervals).toEqual([iso(thisHour - 2 * HOUR), iso(thisHour - HOUR), iso(thisHour)]);
    expect({ start: answer.start, end: answer.end }).toEqual({ start: iso(thisHour - 2 * HOUR), end: iso(thisHour + HOUR) });
    expect(answer.groups).toEqual(
      [
        {
          by: { outcome: "accepted", project: web },
          totals: { "sum(quantity)": 2, "sum(times_seen)": 1 },
          series: { "sum(quantity)": [0, 0, 2], "sum(times_seen)": [0, 0, 1] },
        },
        {
          by: { outcome: "filtered", project: web },
          totals: { "sum(quantity)": 3, "sum(times_seen)": 1 },
          series: { "sum(quantity)": [0, 3, 0], "sum(times_seen)": [0, 1, 0] },
        },
        {
          by: { outcome: "filtered", project: other },
          totals: { "sum(quantity)": 4, "sum(times_seen)": 1 },
          series: { "sum(quantity)": [0, 4, 0], "sum(times_seen)": [0, 1, 0] },
        },
      ].sort((a, b) => JSON.stringify(a.by).localeCompare(JSON.stringify(b.by))),
    );
  });

  it("narrows stats_v2 by project and outcome, and refuses a missing or unknown field", async () => {
    const narrowed = await get(`/api/0/organizations/acme/stats_v2/?field=sum(quantity)&project=${other}&outcome=filtered&statsPeriod=1d`);
    expect((narrowed.body as { groups: unknown[] }).groups).toEqual([
      { by: {}, totals: { "sum(quantity)": 4 }, series: { "sum(quantity)": expect.any(Array) as unknown } },
    ]);
    expect((await get("/api/0/organizations/acme/stats_v2/?statsPeriod=1d")).status).toBe(400);
    expect((await get("/api/0/organizations/acme/stats_v2/?field=count()")).status).toBe(400);
    expect((await get("/api/0/organizations/acme/stats_v2/?field=sum(quantity)&interval=10m")).status).toBe(400);
  });

  it("answers the legacy project stats as [[seconds, count], …] per stat", async () => {
    const since = (thisHour - HOUR) / 1000;
    const until = (thisHour + HOUR) / 1000;
    const stat = async (name: string) =>
      (await get(`/api/0/projects/acme/web/stats/?stat=${name}&since=${since}&until=${until}&resolution=1h`)).body;
    expect(await stat("received")).toEqual([
      [since, 3],
      [since + 3600, 2],
    ]);
    expect(await stat("blacklisted")).toEqual([
      [since, 3],
      [since + 3600, 0],
    ]);
    expect(await stat("generated")).toEqual([
      [since, 0],
      [since + 3600, 2],
    ]);
    expect((await get(`/api/0/projects/acme/web/stats/?stat=nope`)).status).toBe(400);
    expect((await get(`/api/0/projects/acme/web/stats/?resolution=10s`)).status).toBe(400);
  });
});
