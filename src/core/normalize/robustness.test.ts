import { describe, expect, it } from "vitest";
import { normalizeEvent } from "./normalize-event";
import { browserEvent, nodeHttpEvent, pythonWsgiEvent, RECEIVED_AT, transactionEvent } from "./sdk-events.fixture";

const OPTS = { receivedAt: RECEIVED_AT };

function deepArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

function deepObject(levels: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

const EVENT_FIELDS = [
  "event_id",
  "timestamp",
  "start_timestamp",
  "platform",
  "level",
  "logger",
  "transaction",
  "release",
  "dist",
  "environment",
  "server_name",
  "message",
  "logentry",
  "exception",
  "threads",
  "stacktrace",
  "breadcrumbs",
  "contexts",
  "tags",
  "user",
  "request",
  "sdk",
  "fingerprint",
  "spans",
  "measurements",
  "extra",
  "modules",
  "debug_meta",
  "transaction_info",
  "type",
];

const GARBAGE: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  "",
  "x",
  [],
  [1, 2],
  {},
  { values: 1 },
  { values: [null, 1, "x", [], {}] },
  [[["k", "v"]]],
  { frames: "no" },
  deepArray(10_000),
  deepObject(10_000),
  "💥".repeat(10_000),
];

describe("normalizeEvent on garbage", () => {
  it.each([null, undefined, 42, "event", [{ event_id: "x" }], true])("rejects a payload that is not an object: %j", (raw) => {
    const result = normalizeEvent(raw, OPTS);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^the event must be a JSON object/);
  });

  it("rejects an invalid received date instead of producing NaN times", () => {
    expect(normalizeEvent({}, { receivedAt: new Date("nope") }).ok).toBe(false);
  });

  it("accepts every field holding every kind of garbage without throwing", () => {
    for (const field of EVENT_FIELDS) {
      for (const [i, value] of GARBAGE.entries()) {
        const result = normalizeEvent({ type: "transaction", [field]: value }, OPTS);
        expect(result.ok, `${field} = garbage #${i}`).toBe(true);
        expect(JSON.stringify(result).length).toBeLessThan(100_000);
      }
    }
  });

  it("accepts garbage in every nested slot of real SDK events", () => {
    const paths: Array<[() => Record<string, unknown>, (e: Record<string, unknown>, v: unknown) => void]> = [
      [nodeHttpEvent, (e, v) => ((e.request as Record<string, unknown>).headers = v)],
      [nodeHttpEvent, (e, v) => ((e.request as Record<string, unknown>).cookies = v)],
      [nodeHttpEvent, (e, v) => ((e.request as Record<string, unknown>).data = v)],
      [nodeHttpEvent, (e, v) => ((e.request as Record<string, unknown>).query_string = v)],
      [nodeHttpEvent, (e, v) => ((e.request as Record<string, unknown>).url = v)],
      [pythonWsgiEvent, (e, v) => ((e.request as Record<string, unknown>).env = v)],
      [
        pythonWsgiEvent,
        (e, v) =>
          ((e.exception as { values: Array<Record<string, unknown>> }).values[0]!.stacktrace = {
            frames: [v, { vars: v, pre_context: v, lineno: v }],
          }),
      ],
      [pythonWsgiEvent, (e, v) => ((e.exception as { values: Array<Record<string, unknown>> }).values[0]!.mechanism = v)],
      [browserEvent, (e, v) => (e.breadcrumbs = [v, { data: v, timestamp: v, level: v }])],
      [browserEvent, (e, v) => (e.user = { ip_address: v, geo: v, id: v, data: v })],
      [browserEvent, (e, v) => (e.sdk = { settings: v, packages: [v], integrations: v })],
      [() => transactionEvent(3), (e, v) => (e.spans = [v, { span_id: v, start_timestamp: v, timestamp: v, tags: v }])],
      [() => transactionEvent(3), (e, v) => (e.measurements = { a: v, b: { value: v } })],
    ];
    for (const [make, set] of paths) {
      for (const value of GARBAGE) {
        const raw = make();
        set(raw, value);
        const result = normalizeEvent(raw, { ...OPTS, clientIp: "::1", sentAt: "2020-01-01T00:00:00Z" });
        expect(result.ok).toBe(true);
      }
    }
  });

  it("keeps a huge, flat event bounded and fast", () => {
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, "v".repeat(20)]));
    const raw = {
      extra: wide,
      contexts: wide,
      tags: wide,
      modules: wide,
      user: wide,
      request: { headers: wide, cookies: wide, data: wide, env: wide, query_string: wide },
      breadcrumbs: Array.from({ length: 5000 }, () => ({ data: wide })),
      fingerprint: Array.from({ length: 5000 }, () => "x"),
      other_key: wide,
      ...Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`top${i}`, wide])),
    };
    const started = performance.now();
    const result = normalizeEvent(raw, OPTS);
    const elapsed = performance.now() - started;
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(2_000_000);
    expect(elapsed).toBeLessThan(5000);
  });

  it("bounds the list of warnings", () => {
    const raw = {
      exception: { values: Array.from({ length: 25 }, () => ({ stacktrace: { frames: [] } })) },
      threads: Array.from({ length: 50 }, () => ({ stacktrace: { frames: new Array(300).fill({ function: "f" }) } })),
    };
    const result = normalizeEvent(raw, OPTS);
    expect(result.ok && result.warnings.length).toBeLessThanOrEqual(50);
  });
});

describe("normalizeEvent speed", () => {
  it("normalizes and scrubs a realistic event in well under a millisecond on average", () => {
    const payloads = [nodeHttpEvent(), browserEvent(), pythonWsgiEvent()];
    const runs = 3000;
    const started = performance.now();
    for (let i = 0; i < runs; i++) normalizeEvent(payloads[i % 3], OPTS);
    const perEvent = (performance.now() - started) / runs;
    expect(perEvent).toBeLessThan(1);
  });
});
