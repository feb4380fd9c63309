import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { envelopeLimits } from "../../src/server/ingest/ingest-runtime";
import { setLogLevel } from "../../src/server/log";
import { runNodeClient } from "../support/clients";
import { buildEnvelope, newEventId, send } from "../support/envelopes";
import { startFront, type TestFront } from "../support/front";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const YEAR_2000 = 946_684_800;

/** Issue 10, bug 4: spans timed in 1970 (or far outside their segment) are dropped and counted. */
describe.each(DIALECTS)("spans with impossible timestamps on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  let base = "";
  const limits = envelopeLimits(parseSettings({}).ingest);

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "clock" } });
    // The front server as serve.ts builds it: the real ingest handler on loopback.
    front = await startFront(ctx);
    base = front.base;
  });

  afterAll(async () => {
    await front?.close();
    await store?.cleanup();
  });

  async function project(slug: string) {
    const { project, key } = await createProject({ ctx, input: { org: "clock", slug } });
    return { id: project.id, key: key.public_key, dsn: buildDsn(base, key.public_key, project.id) };
  }

  async function digestAll(): Promise<void> {
    for (;;) if ((await digestBatch(ctx, { batchSize: 200, limits })) === 0) return;
  }

  async function spansAndOutcomes(projectId: number) {
    const spans = await store.db
      .selectFrom("spans")
      .select(["name", "start_timestamp", "timestamp"])
      .where("project_id", "=", projectId)
      .execute();
    const outcomes = await store.db
      .selectFrom("outcomes")
      .select(["category", "outcome", "quantity"])
      .where("project_id", "=", projectId)
      .where("reason", "=", "invalid_timestamp")
      .execute();
    return { spans, outcomes };
  }

  it("drops a @sentry/node child span that claims to start in 1970, keeps the transaction and its other spans, and counts an outcome", async () => {
    const p = await project("node");
    await runNodeClient(p.dsn, "badspan");
    await digestAll();
    const { spans, outcomes } = await spansAndOutcomes(p.id);
    expect(spans.map((s) => s.name).sort()).toEqual(["good child", "node fixture bad clock"]);
    for (const s of spans) expect(s.start_timestamp).toBeGreaterThan(YEAR_2000);
    expect(outcomes).toEqual([{ category: "span", outcome: "invalid", quantity: 1 }]);
  });

  it("drops span v2 items before 2000 or over a minute outside their segment, and counts them", async () => {
    const p = await project("v2");
    const t = Date.now() / 1000;
    const traceId = newEventId();
    const segmentId = newEventId().slice(0, 16);
    const child = (name: string, start: number, end: number) => ({
      trace_id: traceId,
      span_id: newEventId().slice(0, 16),
      parent_span_id: segmentId,
      name,
      start_timestamp: start,
      end_timestamp: end,
      attributes: { "sentry.segment.id": { value: segmentId, type: "string" } },
    });
    const items = [
      { trace_id: traceId, span_id: segmentId, name: "GET /", start_timestamp: t - 2, end_timestamp: t, is_segment: true },
      child("in time", t - 1.5, t - 1),
      child("NextNodeServer.clientComponentLoading", 1000.1, 1000.2),
      child("an hour late", t + 3600, t + 3601),
    ];
    const body = buildEnvelope({}, [
      {
        type: "span",
        payload: JSON.stringify({ items }),
        headers: { item_count: items.length, content_type: "application/vnd.sentry.items.span.v2+json" },
      },
    ]);
    const reply = await send(`${base}/api/${p.id}/envelope/?sentry_key=${p.key}`, {
      body,
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status, reply.text).toBe(200);
    await digestAll();
    const { spans, outcomes } = await spansAndOutcomes(p.id);
    expect(spans.map((s) => s.name).sort()).toEqual(["GET /", "in time"]);
    expect(outcomes).toEqual([{ category: "span", outcome: "invalid", quantity: 2 }]);
  });
});
