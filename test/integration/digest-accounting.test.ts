import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ENVELOPE_LIMITS, parseEnvelope } from "../../src/core/envelope/index";
import { runNodeClient } from "../support/clients";
import { openDigestBench, type DigestBench } from "../support/digest";
import { buildEnvelope, newEventId } from "../support/envelopes";
import { DIALECTS } from "../support/stores";

/**
 * Nothing is dropped silently (CONTRIBUTING.md): for every data category, what the digest
 * stored plus what it counted as refused equals what was sent — for envelopes a real
 * @sentry/node sent and for oversized and hostile ones past every cap the digest has.
 */

/** Envelopes @sentry/node sends, caught by a server that answers 200 to everything. */
async function captureNodeSdk(): Promise<Buffer[]> {
  const bodies: Buffer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      bodies.push(req.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  try {
    for (const scenario of ["basic", "scrub", "badspan"] as const) await runNodeClient(`http://public@127.0.0.1:${port}/1`, scenario);
  } finally {
    server.close();
  }
  return bodies;
}

const now = () => Date.now() / 1000;
const hex16 = (i: number) => (0x1000000000000000 + i).toString(16);

/** Past every cap: logs, session buckets, spans in a container and in a transaction, client report entries. */
function hostileEnvelopes(): Buffer[] {
  const t = now();
  const trace = newEventId();
  const log = (i: number) => ({ timestamp: t, level: "info", body: `bulk log ${i}`, attributes: {} });
  const span = (i: number) => ({
    trace_id: trace,
    span_id: hex16(i),
    parent_span_id: hex16(0),
    name: `s${i}`,
    start_timestamp: t - 1,
    end_timestamp: t,
  });
  const txSpans: unknown[] = Array.from({ length: 1100 }, (_, i) => ({
    trace_id: trace,
    span_id: hex16(5000 + i),
    parent_span_id: hex16(4999),
    op: "db",
    start_timestamp: t - 1,
    timestamp: t,
  }));
  txSpans.unshift({ op: "no id" }, "not a span", { span_id: hex16(4000), start_timestamp: t - 1 });
  const bucket = { started: new Date().toISOString(), exited: 3, errored: 1 };
  return [
    buildEnvelope({}, [
      {
        type: "log",
        payload: JSON.stringify({ items: [...Array.from({ length: 1500 }, (_, i) => log(i)), 42] }),
        headers: { item_count: 1501 },
      },
    ]),
    buildEnvelope({}, [
      {
        type: "sessions",
        payload: JSON.stringify({ attrs: { release: "x@1" }, aggregates: [...Array.from({ length: 250 }, () => bucket), "no"] }),
      },
    ]),
    buildEnvelope({}, [
      {
        type: "span",
        payload: JSON.stringify({ items: [...Array.from({ length: 1200 }, (_, i) => span(i)), { span_id: "bad" }] }),
        headers: { item_count: 1201 },
      },
    ]),
    buildEnvelope({}, [
      {
        type: "transaction",
        payload: JSON.stringify({
          type: "transaction",
          event_id: newEventId(),
          transaction: "big",
          start_timestamp: t - 2,
          timestamp: t,
          contexts: { trace: { trace_id: trace, span_id: hex16(4999), op: "task" } },
          spans: txSpans,
        }),
      },
    ]),
    buildEnvelope({}, [
      {
        type: "client_report",
        payload: JSON.stringify({
          discarded_events: Array.from({ length: 300 }, (_, i) => ({
            reason: i % 2 ? "sample_rate" : "before_send",
            category: "error",
            quantity: 1,
          })),
        }),
      },
    ]),
    buildEnvelope({}, [
      { type: "event", payload: "{ not json" },
      { type: "event", payload: `${"[".repeat(300)}${"]".repeat(300)}` },
      { type: "log", payload: JSON.stringify({ items: "nope" }), headers: { item_count: 4 } },
      { type: "session", payload: JSON.stringify({ status: "ok" }) },
      { type: "check_in", payload: JSON.stringify({ status: "ok" }) },
      { type: "check_in", payload: JSON.stringify({ check_in_id: "c1", monitor_slug: "nightly", status: "ok" }) },
      { type: "user_report", payload: JSON.stringify({ event_id: newEventId(), name: "Ada", comments: "broken" }) },
      {
        type: "transaction",
        payload: JSON.stringify({ type: "transaction", transaction: "no trace", start_timestamp: t - 1, timestamp: t }),
      },
    ]),
  ];
}

/** Units sent per category, read from the envelopes by the protocol's counting, independently of the digest. */
function received(bodies: readonly Buffer[]): Map<string, number> {
  const sent = new Map<string, number>();
  const add = (category: string, n: number) => sent.set(category, (sent.get(category) ?? 0) + n);
  for (const body of bodies) {
    for (const item of parseEnvelope(body, DEFAULT_ENVELOPE_LIMITS).items) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(item.payload.toString("utf8"));
      } catch {
        parsed = undefined;
      }
      const o = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
      const list = (key: string) => (Array.isArray(o[key]) ? (o[key] as unknown[]) : null);
      const deep = /^\[{100}/.test(item.payload.toString("utf8"));
      switch (item.header.type) {
        case "event":
          add("error", 1);
          break;
        case "transaction": {
          add("transaction", 1);
          const trace = (o.contexts as { trace?: unknown } | undefined)?.trace;
          if (trace) add("span", (list("spans")?.length ?? 0) + 1);
          break;
        }
        case "span":
          add("span", deep ? 1 : (list("items")?.length ?? Math.max(1, item.header.itemCount ?? 1)));
          break;
        case "log":
          add("log_item", deep ? 1 : (list("items")?.length ?? Math.max(1, item.header.itemCount ?? 1)));
          break;
        case "session":
          add("session", 1);
          break;
        case "sessions":
          add("session", Math.max(1, list("aggregates")?.length ?? 1));
          break;
        case "check_in":
          add("monitor", 1);
          break;
        case "feedback":
        case "user_report":
          add("feedback", 1);
          break;
      }
    }
  }
  return sent;
}

let sdkBodies: Buffer[] = [];
beforeAll(async () => {
  sdkBodies = await captureNodeSdk();
}, 120_000);

describe.each(DIALECTS)("outcome accounting on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => {
    bench = await openDigestBench(dialect);
  });
  afterAll(() => bench.store.cleanup());

  it("stores or counts, per data category, every unit @sentry/node and hostile senders sent", async () => {
    const bodies = [...sdkBodies, ...hostileEnvelopes()];
    const kinds = new Set(bodies.flatMap((b) => parseEnvelope(b, DEFAULT_ENVELOPE_LIMITS).items.map((i) => i.header.type)));
    for (const type of ["event", "transaction", "log", "session", "client_report"])
      expect(kinds, `the SDK capture has no ${type}`).toContain(type);
    await bench.enqueue(...bodies);
    await bench.drain();
    const db = bench.store.db;
    const rows = await db
      .selectFrom("outcomes")
      .select(["category", "outcome", "quantity"])
      .where("project_id", "=", bench.projectId)
      .execute();
    const counted = new Map<string, number>();
    const accepted = new Map<string, number>();
    for (const r of rows) {
      if (r.outcome === "client_discard") continue;
      counted.set(r.category, (counted.get(r.category) ?? 0) + Number(r.quantity));
      if (r.outcome === "accepted") accepted.set(r.category, (accepted.get(r.category) ?? 0) + Number(r.quantity));
    }
    const sent = received(bodies);
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(sent));
    // What was counted accepted is what is stored.
    const count = async (table: "events" | "spans" | "logs" | "check_ins" | "feedback") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("project_id", "=", bench.projectId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count("events")).toBe(accepted.get("error") ?? 0);
    expect(await count("spans")).toBe(accepted.get("span") ?? 0);
    expect(await count("logs")).toBe(accepted.get("log_item") ?? 0);
    expect(await count("check_ins")).toBe(accepted.get("monitor") ?? 0);
    expect(await count("feedback")).toBe(accepted.get("feedback") ?? 0);
    const transactions = await db.selectFrom("transactions").select("event_id").where("project_id", "=", bench.projectId).execute();
    expect(transactions.filter((t) => !t.event_id.endsWith("0".repeat(16))).length).toBe(accepted.get("transaction") ?? 0);
    // The client report's 300 entries, all merged: none lost.
    const discards = rows
      .filter((r) => r.outcome === "client_discard" && r.category === "error")
      .reduce((n, r) => n + Number(r.quantity), 0);
    expect(discards).toBeGreaterThanOrEqual(300);
  });
});
