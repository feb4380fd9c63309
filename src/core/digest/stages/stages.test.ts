import { describe, expect, it } from "vitest";
import { ITEM_TYPES } from "../../envelope/index";
import { browserEvent, nodeHttpEvent, pythonLogEvent, RECEIVED_SECONDS, transactionEvent } from "../../../../test/support/sdk-events";
import { stageFor } from "./index";
import { MAX_LOGS_PER_ITEM } from "./logs";
import { MAX_SESSION_BUCKETS } from "./sessions";
import { digest, envelope, tally } from "../../../../test/support/digest-stages";

const TRACE = "0af7651916cd43dd8448eb211c80319c";

describe("the errors stage", () => {
  it("records what @sentry/node, @sentry/browser and sentry-python sent as grouped events, each counted accepted", async () => {
    const { store, outcomes } = await digest(
      [nodeHttpEvent(), browserEvent(), pythonLogEvent()].map((e) => envelope([{ type: "event", payload: e }])),
    );
    expect(store.stored.events).toHaveLength(3);
    for (const e of store.stored.events) {
      expect(e.hashes[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(e.issue.title).not.toBe("");
      expect(e.issueId).toBeNull();
    }
    expect(new Set(store.stored.events.map((e) => e.hashes[0])).size).toBe(3);
    expect(tally(outcomes)).toEqual({ "error/accepted/": 3 });
  });

  it("counts an event the inbound filters drop, with the filter as its reason, and stores nothing", async () => {
    const event = { ...browserEvent(), exception: { values: [{ type: "Error", value: "ResizeObserver loop limit exceeded" }] } };
    const { store, outcomes } = await digest([envelope([{ type: "event", payload: event }])]);
    expect(store.stored.events).toHaveLength(0);
    expect(tally(outcomes)).toEqual({ "error/filtered/resize-observer": 1 });
  });

  it("stores an event with `contexts.feedback` as feedback, not as an error", async () => {
    const event = { ...nodeHttpEvent(), contexts: { feedback: { message: "the button does nothing", contact_email: "ada@example.com" } } };
    const { store, outcomes } = await digest([envelope([{ type: "event", payload: event }])]);
    expect(store.stored.events).toHaveLength(0);
    expect(store.stored.feedback).toMatchObject([{ comments: "the button does nothing", email: "ada@example.com" }]);
    expect(tally(outcomes)).toEqual({ "feedback/accepted/": 1 });
  });
});

describe("the transactions stage", () => {
  it("records a transaction event with its root span and every child span", async () => {
    const { store, outcomes } = await digest([envelope([{ type: "transaction", payload: transactionEvent(3) }])]);
    expect(store.stored.transactions).toMatchObject([{ name: "GET /orders", traceId: TRACE, op: "http.server" }]);
    expect(store.stored.spans.map((s) => s.spanId)).toEqual([
      "a1b2c3d4e5f60718",
      "1000000000000000",
      "1000000000000001",
      "1000000000000002",
    ]);
    expect(tally(outcomes)).toEqual({ "transaction/accepted/": 1, "span/accepted/": 4 });
  });

  it("records span v2 items, the segment also as a transaction", async () => {
    const segment = {
      trace_id: TRACE,
      span_id: "a1b2c3d4e5f60718",
      name: "GET /",
      start_timestamp: RECEIVED_SECONDS - 2,
      end_timestamp: RECEIVED_SECONDS - 1,
      is_segment: true,
    };
    const child = { ...segment, span_id: "1000000000000001", parent_span_id: segment.span_id, is_segment: false, name: "db" };
    const { store, outcomes } = await digest([
      envelope([{ type: "span", payload: { items: [segment, child, "not a span"] }, headers: { item_count: 3 } }]),
    ]);
    expect(store.stored.spans).toHaveLength(2);
    expect(store.stored.transactions).toMatchObject([{ spanId: segment.span_id, name: "GET /" }]);
    expect(tally(outcomes)).toEqual({ "span/accepted/": 2, "span/invalid/invalid_span": 1 });
  });
});

describe("the logs stage", () => {
  const log = (i: number) => ({
    timestamp: RECEIVED_SECONDS,
    level: "info",
    body: `log ${i}`,
    trace_id: TRACE,
    attributes: { n: { value: i, type: "integer" } },
  });

  it("stores the first MAX_LOGS_PER_ITEM logs of a container and counts the rest as too_many_logs", async () => {
    const items = [...Array.from({ length: MAX_LOGS_PER_ITEM + 250 }, (_, i) => log(i))];
    items[3] = "not a log" as never;
    const { store, outcomes } = await digest([envelope([{ type: "log", payload: { items } }])]);
    expect(store.stored.logs).toHaveLength(MAX_LOGS_PER_ITEM - 1);
    expect(tally(outcomes)).toEqual({
      "log_item/accepted/": MAX_LOGS_PER_ITEM - 1,
      "log_item/invalid/invalid_log": 1,
      "log_item/invalid/too_many_logs": 250,
    });
  });
});

describe("the sessions stages", () => {
  const attrs = { release: "shop@1.0.0", environment: "production" };

  it("counts a session update that starts and ends in one item", async () => {
    const { store, outcomes } = await digest([
      envelope([{ type: "session", payload: { sid: "a", init: true, status: "exited", started: "2026-11-22T07:00:00Z", attrs } }]),
    ]);
    expect(store.stored.sessions.map((s) => [s.status, s.quantity])).toEqual([
      ["started", 1],
      ["exited", 1],
    ]);
    expect(tally(outcomes)).toEqual({ "session/accepted/": 1 });
  });

  it("stores the first MAX_SESSION_BUCKETS aggregate buckets and counts each one past them", async () => {
    const aggregates = Array.from({ length: MAX_SESSION_BUCKETS + 30 }, () => ({ started: "2026-11-22T07:00:00Z", exited: 2, errored: 1 }));
    aggregates[0] = 7 as never;
    const { store, outcomes } = await digest([envelope([{ type: "sessions", payload: { aggregates, attrs } }])]);
    const exited = store.stored.sessions.find((s) => s.status === "exited");
    expect(exited?.quantity).toBe(2 * (MAX_SESSION_BUCKETS - 1));
    expect(tally(outcomes)).toEqual({
      "session/accepted/": MAX_SESSION_BUCKETS - 1,
      "session/invalid/invalid_session_bucket": 1,
      "session/invalid/too_many_session_buckets": 30,
    });
  });
});

describe("the client reports stage", () => {
  it("merges what the SDK dropped, every entry of the protocol's categories and reasons as sent", async () => {
    const entries = Array.from({ length: 150 }, (_, i) => ({
      reason: i % 2 ? "sample_rate" : "ratelimit_backoff",
      category: i % 3 ? "error" : "span",
      quantity: 2,
    }));
    const { outcomes } = await digest([
      envelope([{ type: "client_report", payload: { timestamp: RECEIVED_SECONDS, discarded_events: entries } }]),
    ]);
    const discarded = outcomes.filter((o) => o.outcome === "client_discard").reduce((n, o) => n + o.quantity, 0);
    expect(discarded).toBe(300);
    expect(Object.keys(tally(outcomes)).sort()).toEqual([
      "error/client_discard/ratelimit_backoff",
      "error/client_discard/sample_rate",
      "span/client_discard/ratelimit_backoff",
      "span/client_discard/sample_rate",
    ]);
  });

  it("counts entries of categories or reasons the protocol does not define as invalid, keeping none of their text", async () => {
    const report = {
      discarded_events: [
        { reason: "sample_rate", category: "made_up", quantity: 1_000_000 },
        { reason: "<script>alert(1)</script>", category: "error", quantity: 5 },
        { reason: "before_send", category: "error", quantity: 3 },
        { reason: "before_send", category: "", quantity: 1 },
        { reason: "before_send", category: "error", quantity: 2e9 },
      ],
      rate_limited_events: [{ reason: "key_quota", category: "transaction", quantity: 7 }],
      filtered_events: "nope",
    };
    const { outcomes } = await digest([envelope([{ type: "client_report", payload: report }])]);
    expect(tally(outcomes)).toEqual({
      "error/client_discard/before_send": 3,
      "internal/invalid/unknown_client_report_category": 2,
      "internal/invalid/unknown_client_report_reason": 2,
      "internal/invalid/invalid_client_report_entry": 2,
    });
  });

  it("counts a client report that is not an object", async () => {
    const { outcomes } = await digest([envelope([{ type: "client_report", payload: "[1,2]" }])]);
    expect(tally(outcomes)).toEqual({ "internal/invalid/invalid_client_report": 1 });
  });
});

describe("the check-ins, feedback and raw stages", () => {
  it("records a check-in, a feedback item, a user report and a profile, each counted", async () => {
    const body = envelope([
      { type: "check_in", payload: { check_in_id: "c1", monitor_slug: "nightly", status: "ok", duration: 3.5 } },
      { type: "feedback", payload: { ...nodeHttpEvent(), contexts: { feedback: { message: "great" } } } },
      {
        type: "user_report",
        payload: { event_id: "0123456789abcdef0123456789abcdef", name: "Ada", email: "ada@example.com", comments: "broken" },
      },
      { type: "profile", payload: { version: "1" } },
    ]);
    const { store, outcomes } = await digest([body]);
    expect(store.stored.checkIns).toMatchObject([{ checkInId: "c1", monitorSlug: "nightly", duration: 3.5 }]);
    expect(store.stored.feedback.map((f) => f.comments)).toEqual(["great", "broken"]);
    expect(store.stored.rawItems.map((r) => r.type)).toEqual(["profile"]);
    expect(tally(outcomes)).toEqual({ "monitor/accepted/": 1, "feedback/accepted/": 2, "profile/accepted/": 1 });
  });

  it("counts an item for what it can hold, not for the item_count its header claims", async () => {
    const { outcomes } = await digest([
      envelope([
        { type: "profile", payload: { version: "1" }, headers: { item_count: 1_000_000_000 } },
        { type: "replay_recording", payload: "x", headers: { item_count: 50 } },
        { type: "span", payload: { items: 3 }, headers: { item_count: 1_000_000_000 } },
        { type: "trace_metric", payload: { items: [{}, {}] }, headers: { item_count: 1_000_000_000 } },
      ]),
    ]);
    expect(tally(outcomes)).toEqual({
      "profile/accepted/": 1,
      "replay/accepted/": 1,
      // {"items":3} is 11 bytes: room for at most 4 entries.
      "span/invalid/invalid_span_container": 4,
      // 17 bytes: at most 6; a metrics container is kept as sent, its entries unread.
      "trace_metric/accepted/": 6,
    });
  });

  it("refuses an item nested deeper than the digest walks before any stage parses it", async () => {
    const deep = `${"[".repeat(500)}${"]".repeat(500)}`;
    const { store, outcomes } = await digest([envelope([{ type: "log", payload: deep, headers: { item_count: 0 } }])]);
    expect(store.stored.logs).toHaveLength(0);
    expect(tally(outcomes)).toEqual({ "log_item/invalid/too_deep": 1 });
  });
});

describe("the stage registry", () => {
  it("has a stage for every item type, and keeps as bytes only the types no stage reads", () => {
    const parsed = ["event", "transaction", "span", "session", "sessions", "log", "check_in", "feedback", "user_report", "client_report"];
    for (const type of ITEM_TYPES) {
      const stage = stageFor(type);
      expect(stage.name.startsWith("raw:"), type).toBe(!parsed.includes(type) && type !== "attachment");
    }
    expect(stageFor(null).name).toBe("raw:unknown");
  });
});
