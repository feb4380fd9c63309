import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { updateScrubbing } from "../../src/core/projects/options";
import { envelopeLimits } from "../../src/server/ingest/ingest-runtime";
import { setLogLevel } from "../../src/server/log";
import { runNodeClient } from "../support/clients";
import { buildEnvelope, newEventId, send } from "../support/envelopes";
import { startFront, type TestFront } from "../support/front";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { decodePayload } from "../../src/core/storage/payload";

const F = "[Filtered]";
/** Secrets sent in every item type; none may be stored. */
const CARD = "4111 1111 1111 1111";
const SECRETS = ["hunter2", "4111 1111 1111 1111", "4111111111111111", "abcdef123456", "tok-secret-9", "s3cr3t-value"];

const hex = (n: number) => newEventId().slice(0, n);
const now = () => Date.now() / 1000;
const attr = (value: unknown, type = "string") => ({ value, type });

/** One envelope with a log, a span v2 container, a transaction, a user report, a feedback, a check-in and an event. */
function secretsEnvelope(): { body: Buffer; traceId: string; reportEventId: string } {
  const traceId = newEventId();
  const rootId = hex(16);
  const t = now();
  const reportEventId = newEventId();
  const log = {
    items: [
      {
        timestamp: t,
        level: "warn",
        body: `login failed password: hunter2 card ${CARD}`,
        trace_id: traceId,
        attributes: {
          "user.password": attr("hunter2"),
          "http.request.header.authorization": attr("Bearer abcdef123456.xyz"),
          ok: attr("kept"),
        },
      },
    ],
  };
  const spans = {
    items: [
      {
        trace_id: traceId,
        span_id: hex(16),
        name: "GET /reset?token=tok-secret-9",
        start_timestamp: t - 1,
        end_timestamp: t,
        status: "ok",
        is_segment: true,
        attributes: { "db.password": attr("hunter2"), note: attr(`card ${CARD}`), "sentry.op": attr("http.server") },
      },
    ],
  };
  const transaction = {
    event_id: newEventId(),
    type: "transaction",
    transaction: "POST /login?api_key=s3cr3t-value",
    start_timestamp: t - 1,
    timestamp: t,
    contexts: { trace: { trace_id: traceId, span_id: rootId, op: "http.server", data: { "app.secret": "s3cr3t-value" } } },
    spans: [
      {
        trace_id: traceId,
        span_id: hex(16),
        parent_span_id: rootId,
        op: "http.client",
        description: "POST /auth Authorization: Bearer abcdef123456.xyz",
        start_timestamp: t - 0.5,
        timestamp: t - 0.4,
        data: { "db.password": "hunter2", "url.full": "https://pay.test/?card=1&token=tok-secret-9" },
      },
    ],
  };
  const userReport = {
    event_id: reportEventId,
    name: "Ada password=hunter2",
    email: "ada@example.com",
    comments: `card ${CARD} charged twice`,
  };
  const feedback = {
    event_id: newEventId(),
    timestamp: t,
    contexts: {
      feedback: { message: `password: hunter2 and card ${CARD}`, contact_email: "grace@example.com", name: "Grace token=tok-secret-9" },
    },
  };
  const checkIn = {
    check_in_id: newEventId(),
    monitor_slug: "nightly",
    status: "error",
    contexts: { job: { api_key: "s3cr3t-value", log: "using Authorization: Bearer abcdef123456.xyz" } },
  };
  const event = { event_id: newEventId(), message: "login failed password: hunter2", timestamp: t, platform: "node" };
  const json = (v: unknown) => JSON.stringify(v);
  const body = buildEnvelope({ trace: { trace_id: traceId } }, [
    { type: "log", payload: json(log), headers: { item_count: 1, content_type: "application/vnd.sentry.items.log+json" } },
    { type: "span", payload: json(spans), headers: { item_count: 1, content_type: "application/vnd.sentry.items.span.v2+json" } },
    { type: "transaction", payload: json(transaction) },
    { type: "user_report", payload: json(userReport) },
    { type: "feedback", payload: json(feedback) },
    { type: "check_in", payload: json(checkIn) },
    { type: "event", payload: json(event) },
  ]);
  return { body, traceId, reportEventId };
}

describe.each(DIALECTS)("scrubbing every item type on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  let base = "";
  const limits = envelopeLimits(parseSettings({}).ingest);

  beforeAll(async () => {
    setLogLevel("warn");
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "scrub" } });
    // The front server as serve.ts builds it: the real ingest handler on loopback.
    front = await startFront(ctx);
    base = front.base;
  });

  afterAll(async () => {
    await front?.close();
    await store?.cleanup();
  });

  async function project(slug: string) {
    const { project, key } = await createProject({ ctx, input: { org: "scrub", slug } });
    return { id: project.id, key: key.public_key, dsn: buildDsn(base, key.public_key, project.id) };
  }

  async function digestAll(): Promise<void> {
    for (;;) if ((await digestBatch(ctx, { batchSize: 200, limits })) === 0) return;
  }

  /** Every stored row of the project's user-data tables, as text. */
  async function storedText(projectId: number) {
    const db = store.db;
    const [logs, spans, transactions, feedback, checkIns, events] = await Promise.all([
      db.selectFrom("logs").select(["body", "data"]).where("project_id", "=", projectId).execute(),
      db.selectFrom("spans").select(["name", "data"]).where("project_id", "=", projectId).execute(),
      db.selectFrom("transactions").select(["name", "data"]).where("project_id", "=", projectId).execute(),
      db.selectFrom("feedback").select(["name", "email", "comments", "data"]).where("project_id", "=", projectId).execute(),
      db.selectFrom("check_ins").select(["monitor_slug", "data"]).where("project_id", "=", projectId).execute(),
      db.selectFrom("events").select(["title", "data"]).where("project_id", "=", projectId).execute(),
    ]);
    // Payloads are stored compressed: the secrets are looked for in what they decode to.
    const text = <T extends { data: string | Buffer }>(rows: T[]) => rows.map((r) => ({ ...r, data: decodePayload(r.data) }));
    return { logs, spans, transactions: text(transactions), feedback, checkIns, events: text(events) };
  }

  it("stores logs, spans, transactions, user reports, feedback, check-ins and events with their secrets filtered", async () => {
    const p = await project("items");
    const { body, reportEventId } = secretsEnvelope();
    const reply = await send(`${base}/api/${p.id}/envelope/?sentry_key=${p.key}`, {
      body,
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status, reply.text).toBe(200);
    await digestAll();
    const rows = await storedText(p.id);
    for (const [table, list] of Object.entries(rows)) expect(list.length, `${table} rows`).toBeGreaterThan(0);
    const all = JSON.stringify(rows);
    for (const secret of SECRETS) expect(all, `"${secret}" stored`).not.toContain(secret);

    expect(rows.logs[0]?.body).toBe(`login failed password: ${F} card ${F}`);
    expect(JSON.parse(rows.logs[0]!.data)).toMatchObject({ "user.password": attr(F), ok: attr("kept") });
    const spanNames = rows.spans.map((s) => s.name);
    expect(spanNames).toContain(`GET /reset?token=${F}`);
    expect(spanNames).toContain(`POST /login?api_key=${F}`);
    expect(spanNames).toContain(`POST /auth Authorization: Bearer ${F}`);
    const report = rows.feedback.find((f) => JSON.parse(f.data).event_id === reportEventId);
    expect(report).toMatchObject({ name: `Ada password=${F}`, email: "ada@example.com", comments: `card ${F} charged twice` });
    const widget = rows.feedback.find((f) => f !== report);
    expect(widget).toMatchObject({ name: `Grace token=${F}`, email: "grace@example.com", comments: `password: ${F} and card ${F}` });
    expect(rows.checkIns[0]?.monitor_slug).toBe("nightly");
    expect(rows.events[0]?.title).toBe(`login failed password: ${F}`);
  });

  it("applies the project's safe fields, extra sensitive fields and IP setting to logs and spans", async () => {
    const p = await project("settings");
    await updateScrubbing({
      ctx,
      input: { projectId: p.id, scrubbing: { safeFields: ["db.password"], extraSensitiveFields: ["shoe"], storeIpAddresses: false } },
    });
    const t = now();
    const traceId = newEventId();
    const attributes = { "db.password": attr("kept-by-safe-field"), shoe_size: attr("44"), "client.address": attr("203.0.113.9") };
    const body = buildEnvelope({}, [
      {
        type: "log",
        payload: JSON.stringify({ items: [{ timestamp: t, level: "info", body: "settings", attributes }] }),
        headers: { item_count: 1 },
      },
      {
        type: "span",
        payload: JSON.stringify({
          items: [{ trace_id: traceId, span_id: hex(16), name: "settings", start_timestamp: t - 1, end_timestamp: t, attributes }],
        }),
        headers: { item_count: 1, content_type: "application/vnd.sentry.items.span.v2+json" },
      },
    ]);
    const reply = await send(`${base}/api/${p.id}/envelope/?sentry_key=${p.key}`, {
      body,
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status, reply.text).toBe(200);
    await digestAll();
    const rows = await storedText(p.id);
    const expected = { "db.password": attr("kept-by-safe-field"), shoe_size: attr(F) };
    expect(JSON.parse(rows.logs[0]!.data)).toEqual(expected);
    expect(JSON.parse(rows.spans[0]!.data).attributes).toEqual(expected);
  });

  it("scrubs what @sentry/node 11 sends: a log via Sentry.logger and a span with a sensitive attribute", async () => {
    const p = await project("sdk");
    await runNodeClient(p.dsn, "scrub");
    await digestAll();
    const rows = await storedText(p.id);
    const all = JSON.stringify(rows);
    for (const secret of ["hunter2", "4111 1111 1111 1111", "span-secret-1", "abcdef123456"])
      expect(all, `"${secret}" stored`).not.toContain(secret);
    const bodies = rows.logs.map((l) => l.body).sort();
    expect(bodies).toEqual([`node fixture charge failed for card ${F}`, `node fixture login failed for ada password: ${F}`]);
    const charge = rows.logs.find((l) => l.body.includes("charge"))!;
    expect(JSON.parse(charge.data)["sentry.message.parameter.0"]).toMatchObject({ value: F });
    const span = rows.spans.find((s) => s.name.startsWith("GET /reset"));
    expect(span?.name).toBe(`GET /reset?token=${F}`);
    const attributes = (JSON.parse(span!.data) as { attributes: Record<string, { value: unknown }> }).attributes;
    expect(attributes["app.password"]?.value).toBe(F);
    expect(attributes["app.note"]?.value).toBe(`sent Authorization: Bearer ${F}`);
  });
});
