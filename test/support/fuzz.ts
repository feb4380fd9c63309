import fc from "fast-check";
import { ITEM_TYPES } from "../../src/core/envelope/index";
import { buildEnvelope, type ItemSpec } from "./envelopes";

/**
 * The fuzz suites' seed: fixed so a run can be repeated, printed so a failure can be, and
 * overridable (FUZZ_SEED=… FUZZ_RUNS=…) to explore further than the capped default.
 */
export function fuzzParameters(suite: string, defaultRuns: number): { seed: number; numRuns: number } {
  const seed = Number(process.env.FUZZ_SEED ?? 20261123);
  const numRuns = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  console.log(`[fuzz] ${suite}: seed=${seed} numRuns=${numRuns} (repeat with FUZZ_SEED=${seed})`);
  return { seed, numRuns };
}

/** Text that databases and JSON tooling stumble on: NUL, lone surrogates, control and bidi characters. */
const NASTY_CHARS = [
  "\u0000",
  "\ud800",
  "\udfff",
  "\ud83d",
  "\u0001",
  "\u001f",
  "\u2028",
  "\u202e",
  "\ufeff",
  "\\",
  '"',
  "\n",
  "\r",
  "é",
  "😀",
];
export const hostileString = fc
  .array(fc.oneof(fc.constantFrom(...NASTY_CHARS), fc.string({ maxLength: 8 }), fc.constant("password=hunter2 4111111111111111")), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));

const hugeNumber = fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 1e-320, 2 ** 63, 4111111111111111, 1.5);

/** A JSON value of any shape: the wrong type for whatever field it lands in. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hugeNumber,
    fc.integer(),
    hostileString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** JSON text nested `depth` levels deep (arrays, objects or both), as a string: JSON.stringify itself would overflow. */
export const deepJson = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 100, max: 200 }), fc.integer({ min: 5_000, max: 40_000 })),
    kind: fc.constantFrom("array", "object", "mixed"),
  })
  .map(({ depth, kind }) => {
    const open = (i: number) => (kind === "array" || (kind === "mixed" && i % 2 === 0) ? "[" : '{"k":');
    const close = (i: number) => (kind === "array" || (kind === "mixed" && i % 2 === 0) ? "]" : "}");
    let head = "";
    let tail = "";
    for (let i = 0; i < depth; i++) {
      head += open(i);
      tail = close(i) + tail;
    }
    return `${head}1${tail}`;
  });

/** Fields each item type reads, so hostile values reach the code that reads them. */
const FIELDS = [
  "event_id",
  "message",
  "level",
  "timestamp",
  "start_timestamp",
  "platform",
  "exception",
  "contexts",
  "spans",
  "transaction",
  "tags",
  "user",
  "request",
  "breadcrumbs",
  "extra",
  "fingerprint",
  "release",
  "environment",
  "name",
  "email",
  "comments",
  "check_in_id",
  "monitor_slug",
  "status",
  "duration",
  "items",
  "attrs",
  "aggregates",
  "init",
  "started",
  "errors",
  "discarded_events",
  "span_id",
  "trace_id",
  "parent_span_id",
  "end_timestamp",
  "is_segment",
  "attributes",
  "body",
  "sdk",
  "logentry",
  "type",
];
const hostileObject = fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { maxKeys: 8 });
/** A container (`items`) of log or span-like entries with hostile fields. */
const hostileContainer = fc.array(hostileObject, { maxLength: 5 }).map((items) => ({ items }));

const HEX = "0123456789abcdef";
const hexId = (n: number) => fc.string({ unit: fc.constantFrom(...HEX), minLength: n, maxLength: n });
const t = 1_763_900_000;

/** A valid payload per item type, so hostile values overwritten into it get past the first shape checks. */
export const SKELETONS: Record<string, (ids: { event: string; trace: string; span: string }) => Record<string, unknown>> = {
  event: (id) => ({ event_id: id.event, message: "m", level: "error", timestamp: t, exception: { values: [{ type: "E", value: "v" }] } }),
  transaction: (id) => ({
    event_id: id.event,
    type: "transaction",
    transaction: "/x",
    start_timestamp: t,
    timestamp: t + 1,
    contexts: { trace: { trace_id: id.trace, span_id: id.span } },
    spans: [{ span_id: id.span, trace_id: id.trace, start_timestamp: t, timestamp: t + 1 }],
  }),
  feedback: (id) => ({ event_id: id.event, timestamp: t, contexts: { feedback: { message: "m", name: "n", contact_email: "a@b" } } }),
  user_report: (id) => ({ event_id: id.event, name: "n", email: "e", comments: "c" }),
  check_in: (id) => ({ check_in_id: id.event, monitor_slug: "m", status: "ok", duration: 1, environment: "prod" }),
  log: (id) => ({
    items: [{ timestamp: t, level: "info", body: "b", trace_id: id.trace, attributes: { a: { value: 1, type: "integer" } } }],
  }),
  span: (id) => ({
    items: [
      {
        trace_id: id.trace,
        span_id: id.span,
        name: "s",
        start_timestamp: t,
        end_timestamp: t + 1,
        is_segment: true,
        attributes: { "sentry.op": { value: "op", type: "string" } },
      },
    ],
  }),
  session: () => ({
    sid: "s",
    init: true,
    status: "exited",
    started: "2026-11-23T00:00:00Z",
    errors: 1,
    attrs: { release: "r@1", environment: "e" },
  }),
  sessions: () => ({ aggregates: [{ started: "2026-11-23T00:00:00Z", exited: 2, errored: 1 }], attrs: { release: "r@1" } }),
  client_report: () => ({ discarded_events: [{ reason: "queue_overflow", category: "error", quantity: 3 }] }),
};

/** A skeleton with some fields (top-level or in its first container entry) replaced by hostile values. */
const nearValid = fc
  .record({
    type: fc.constantFrom(...Object.keys(SKELETONS)),
    ids: fc.record({ event: hexId(32), trace: hexId(32), span: hexId(16) }),
    overrides: fc.dictionary(
      fc.constantFrom(...FIELDS),
      fc.oneof(
        anyJson,
        deepJson.map((text) => new Deep(text)),
      ),
      { maxKeys: 3 },
    ),
    inEntry: fc.boolean(),
  })
  .map(({ type, ids, overrides, inEntry }) => {
    const payload = SKELETONS[type]?.(ids) ?? {};
    const [entry] = Array.isArray(payload.items) ? (payload.items as Record<string, unknown>[]) : [];
    Object.assign(inEntry && entry ? entry : payload, overrides);
    return { type, text: stringifyWithDeep(payload) };
  });

/** Deep JSON text to splice in as a value: as a parsed value, JSON.stringify would overflow the stack here too. */
class Deep {
  constructor(readonly text: string) {}
}

function stringifyWithDeep(value: unknown): string {
  const deep: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Deep ? `__deep_${deep.push(v.text) - 1}__` : v)) ?? "null";
  return text.replace(/"__deep_(\d+)__"/g, (_m, i: string) => deep[Number(i)] ?? "null");
}

const itemType = fc.oneof({ arbitrary: fc.constantFrom(...ITEM_TYPES), weight: 4 }, { arbitrary: hostileString, weight: 1 });

/** A near-valid item of a type the digest reads, with its real type. */
const nearValidItem: fc.Arbitrary<ItemSpec> = nearValid.map(({ type, text }) => ({ type, payload: text }));

/** One item: a known or hostile type with a payload of hostile JSON, deep JSON, or random bytes. */
export const hostileItem: fc.Arbitrary<ItemSpec> = fc.oneof(
  { arbitrary: nearValidItem, weight: 1 },
  {
    arbitrary: fc
      .record({
        type: itemType,
        payload: fc.oneof(
          hostileObject.map((o) => JSON.stringify(o)),
          hostileContainer.map((o) => JSON.stringify(o)),
          anyJson.map((v) => JSON.stringify(v) ?? "null"),
          deepJson,
          fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
        ),
        headers: fc.option(
          fc.dictionary(fc.constantFrom("item_count", "content_type", "filename", "attachment_type", "platform"), anyJson, { maxKeys: 3 }),
          { nil: undefined, freq: 4 },
        ),
        implicitLength: fc.boolean(),
      })
      .map(({ type, payload, headers, implicitLength }) => {
        // An implicit length ends at the first newline: only for payloads without one.
        const noNewline = typeof payload === "string" ? !payload.includes("\n") : !payload.includes(0x0a);
        return { type, payload, ...(headers ? { headers } : {}), ...(implicitLength && noNewline ? { length: null } : {}) };
      }),
    weight: 1,
  },
);

/** Envelope headers: mostly what SDKs send, sometimes hostile. */
const envelopeHeader = fc.oneof(
  { arbitrary: fc.record({ event_id: hexId(32) }, { requiredKeys: [] }), weight: 4 },
  { arbitrary: fc.dictionary(fc.constantFrom("event_id", "sent_at", "dsn", "sdk", "trace"), anyJson, { maxKeys: 3 }), weight: 1 },
);

/** A whole envelope body: well framed with hostile items, or bytes with no framing at all. */
export const hostileEnvelope: fc.Arbitrary<Buffer> = fc.oneof(
  {
    arbitrary: fc
      .record({ header: envelopeHeader, items: fc.array(hostileItem, { minLength: 1, maxLength: 4 }) })
      .map(({ header, items }) => buildEnvelope(header, items)),
    weight: 8,
  },
  { arbitrary: fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)), weight: 1 },
  {
    arbitrary: fc
      .array(fc.oneof(hostileString, fc.constantFrom("\n", "{}", '{"type":"event"}', '{"type":"event","length":5}')), { maxLength: 10 })
      .map((parts) => Buffer.from(parts.join(""))),
    weight: 1,
  },
);
