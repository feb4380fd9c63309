import { describe, expect, it } from "vitest";
import { normalizeEvent } from "./normalize-event";
import { browserEvent, nodeHttpEvent, pythonWsgiEvent, RECEIVED_AT, transactionEvent } from "../../../test/support/sdk-events";

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

/** An event with `width`-key objects in every free-form slot, and lists and top keys to match. */
function wideEvent(width: number): Record<string, unknown> {
  const wide = Object.fromEntries(Array.from({ length: width }, (_, i) => [`k${i}`, "v".repeat(20)]));
  return {
    extra: wide,
    contexts: wide,
    tags: wide,
    modules: wide,
    user: wide,
    request: { headers: wide, cookies: wide, data: wide, env: wide, query_string: wide },
    breadcrumbs: Array.from({ length: width / 10 }, () => ({ data: wide })),
    fingerprint: Array.from({ length: width / 10 }, () => "x"),
    other_key: wide,
    ...Object.fromEntries(Array.from({ length: width / 50 }, (_, i) => [`top${i}`, wide])),
  };
}

/**
 * Wraps `value` so that every property read, key listing (one per key) and key lookup at any
 * depth adds to `work.reads`; the same object always gets the same wrapper, so identity holds.
 */
function counted<T>(value: T, work: { reads: number }, wrappers = new WeakMap<object, object>()): T {
  if (typeof value !== "object" || value === null) return value;
  const known = wrappers.get(value);
  if (known) return known as T;
  const wrapper = new Proxy(value, {
    get(target, key, receiver) {
      work.reads++;
      return counted(Reflect.get(target, key, receiver), work, wrappers);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      work.reads += keys.length;
      return keys;
    },
    getOwnPropertyDescriptor(target, key) {
      work.reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    has(target, key) {
      work.reads++;
      return Reflect.has(target, key);
    },
  });
  wrappers.set(value, wrapper);
  return wrapper as T;
}

function countReads(raw: unknown): { ok: boolean; reads: number; outputLength: number } {
  const work = { reads: 0 };
  const result = normalizeEvent(counted(raw, work), OPTS);
  return { ok: result.ok, reads: work.reads, outputLength: JSON.stringify(result).length };
}

/** Keys and array items in a JSON value, at every depth. */
function countNodes(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce((sum: number, child) => sum + countNodes(child), 0);
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

  it("keeps a huge, flat event bounded", () => {
    const result = normalizeEvent(wideEvent(50_000), OPTS);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(2_000_000);
  });

  // Speed is measured by bench/normalize.mjs, never asserted here: a test timed under load
  // fails for reasons that are not bugs. What a test can check without a clock is the shape
  // of the work: reads of the input grow linearly with it, so quadratic walks fail here.
  it("reads a wide event's input in work proportional to its size", () => {
    const [smallEvent, largeEvent] = [wideEvent(500), wideEvent(1000)];
    const small = countReads(smallEvent);
    const large = countReads(largeEvent);
    expect(small.ok && large.ok).toBe(true);
    // Linear work grows as the input does; a walk that rescans what it has seen grows as its square.
    const inputGrowth = countNodes(largeEvent) / countNodes(smallEvent);
    expect(large.reads / small.reads).toBeLessThan(1.25 * inputGrowth);
    // Listing a key and reading its value is a few reads; caps mean most keys are never read.
    expect(large.reads).toBeLessThan(3 * countNodes(largeEvent));
    expect(large.outputLength).toBeLessThan(1.25 * inputGrowth * small.outputLength);
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

describe("normalizeEvent work on a realistic event", () => {
  it.each([nodeHttpEvent, browserEvent, pythonWsgiEvent])("reads each input value a few times at most: %o", (make) => {
    const raw = make();
    const { ok, reads } = countReads(raw);
    expect(ok).toBe(true);
    // Normalizing and scrubbing walk the event a fixed number of times, not once per field.
    expect(reads).toBeLessThan(8 * countNodes(raw));
  });
});
