import { describe, expect, it } from "vitest";
import { TelltaleError } from "../errors";
import { EnvelopeError, statusOf } from "./errors";
import { parseEnvelope } from "./parse-envelope";
import { EnvelopeParser } from "./parser";
import { type EnvelopeLimits } from "./limits";
import {
  envelope,
  fixture,
  item,
  limitsWith,
  parseChunks,
  parseWhole,
  prng,
  split,
  type SeenItem,
} from "../../../test/support/envelope-parser";

const FIXTURES = [
  "node-event.envelope",
  "node-session.envelope",
  "node-span-v2.envelope",
  "node-logs.envelope",
  "node-event-attachment.envelope",
  "node-client-report.envelope",
  "browser-event.envelope",
  "browser-feedback.envelope",
];

function thrownBy(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

const EVENT_ID = "9ec79c33ec9942ab8353589fcb2e04dc";

type Expected = Array<Pick<SeenItem, "type" | "payload"> & { streamed?: boolean }>;

/** Valid envelopes, most taken from the spec's own examples (develop.sentry.dev "Envelopes", docs/protocol.md#envelope-format). */
const valid: Array<[string, string | Buffer, Record<string, unknown>, Expected]> = [
  ["an empty envelope without a trailing newline", "{}", {}, []],
  ["an empty envelope with a trailing newline", "{}\n", {}, []],
  ["an empty envelope with an event_id", `{"event_id":"${EVENT_ID}"}\n`, { event_id: EVENT_ID }, []],
  [
    "an empty attachment with length 0 followed by its newline",
    `{"event_id":"${EVENT_ID}"}\n{"type":"attachment","length":0}\n\n`,
    { event_id: EVENT_ID },
    [{ type: "attachment", payload: "" }],
  ],
  [
    "two empty attachments (spec example)",
    `{"event_id":"${EVENT_ID}"}\n{"type":"attachment","length":0}\n\n{"type":"attachment","length":0}\n\n`,
    { event_id: EVENT_ID },
    [
      { type: "attachment", payload: "" },
      { type: "attachment", payload: "" },
    ],
  ],
  ["a length-0 item at EOF right after its header", `{}\n{"type":"attachment","length":0}`, {}, [{ type: "attachment", payload: "" }]],
  [
    "an implicit-length session that ends at EOF (spec example)",
    '{}\n{"type":"session"}\n{"started": "2020-02-07T14:16:00Z","attrs":{"release":"sentry-test@1.0.0"}}',
    {},
    [{ type: "session", payload: '{"started": "2020-02-07T14:16:00Z","attrs":{"release":"sentry-test@1.0.0"}}' }],
  ],
  [
    "an implicit-length item followed by the optional trailing newline",
    '{}\n{"type":"event"}\n{"message":"hi"}\n',
    {},
    [{ type: "event", payload: '{"message":"hi"}' }],
  ],
  [
    "an implicit-length payload ending in \\r\\n keeps the \\r",
    '{}\n{"type":"event"}\n{"message":"hi"}\r\n{"type":"session"}\n{}\r\n',
    {},
    [
      { type: "event", payload: '{"message":"hi"}\r' },
      { type: "session", payload: "{}\r" },
    ],
  ],
  ["an item header at EOF with no length has an empty payload", '{}\n{"type":"event"}', {}, [{ type: "event", payload: "" }]],
  [
    "an implicit-length empty payload between two newlines",
    '{}\n{"type":"event"}\n\n{"type":"session"}\n{}',
    {},
    [
      { type: "event", payload: "" },
      { type: "session", payload: "{}" },
    ],
  ],
  [
    "the spec's full example: an attachment with BOM and \\r\\n, then an event with length",
    `{"event_id":"${EVENT_ID}","dsn":"https://e12d836b15bb49d7bbf99e64295d995b:@sentry.io/42"}\n` +
      '{"type":"attachment","length":10,"content_type":"text/plain","filename":"hello.txt"}\n\xef\xbb\xbfHello\r\n\n' +
      '{"type":"event","length":41,"content_type":"application/json","filename":"application.log"}\n' +
      '{"message":"hello world","level":"error"}\n',
    { event_id: EVENT_ID, dsn: "https://e12d836b15bb49d7bbf99e64295d995b:@sentry.io/42" },
    [
      { type: "attachment", payload: "\xef\xbb\xbfHello\r\n" },
      { type: "event", payload: '{"message":"hello world","level":"error"}' },
    ],
  ],
  [
    "a length-prefixed payload that contains newlines and \\r\\n",
    envelope({}, item({ type: "attachment", filename: "log.txt" }, "line 1\nline 2\r\n\n"), item({ type: "event" }, "{}", true)),
    {},
    [
      { type: "attachment", payload: "line 1\nline 2\r\n\n" },
      { type: "event", payload: "{}" },
    ],
  ],
  [
    "several items of several types",
    envelope(
      { event_id: EVENT_ID },
      item({ type: "event" }, '{"message":"boom"}', true),
      item({ type: "attachment", filename: "a.bin" }, Buffer.from([0, 10, 13, 255])),
      item({ type: "session" }, '{"sid":"x"}', true),
      item({ type: "client_report" }, '{"discarded_events":[]}'),
    ),
    { event_id: EVENT_ID },
    [
      { type: "event", payload: '{"message":"boom"}' },
      { type: "attachment", payload: "\x00\n\r\xff" },
      { type: "session", payload: '{"sid":"x"}' },
      { type: "client_report", payload: '{"discarded_events":[]}' },
    ],
  ],
  [
    "an unknown item type, passed through as a streamed item",
    '{}\n{"type":"my_future_thing","x":1}\nwhatever\n{"type":"event"}\n{}',
    {},
    [
      { type: "my_future_thing", payload: "whatever", streamed: true },
      { type: "event", payload: "{}", streamed: false },
    ],
  ],
  ["length: null reads as no length", '{}\n{"type":"event","length":null}\n{}', {}, [{ type: "event", payload: "{}" }]],
  [
    "a multi-byte UTF-8 payload whose length counts bytes",
    envelope({}, item({ type: "event" }, '{"message":"héllo ✓"}')),
    {},
    [{ type: "event", payload: Buffer.from('{"message":"héllo ✓"}').toString("latin1") }],
  ],
];

describe("EnvelopeParser on valid envelopes", () => {
  it.each(valid)("parses %s", (_name, input, header, expected) => {
    const bytes = typeof input === "string" ? Buffer.from(input, "latin1") : input;
    const outcome = parseWhole(bytes);
    if (!outcome.ok) throw new Error(`rejected: ${outcome.message}`);
    expect(outcome.header).toEqual(header);
    expect(outcome.items.map(({ type, payload }) => ({ type, payload }))).toEqual(expected.map(({ type, payload }) => ({ type, payload })));
    for (const [i, e] of expected.entries()) {
      if (e.streamed !== undefined) expect(outcome.items[i]?.streamed).toBe(e.streamed);
    }
  });
});

/** Malformed envelopes: [name, input, reason, a phrase the message must contain]. */
const invalid: Array<[string, string, string, string]> = [
  ["an empty body", "", "invalid_envelope_header", "body is empty"],
  ["a blank first line", "\n", "invalid_envelope_header", "empty line"],
  ["a first line that is not JSON", "hello\n", "invalid_envelope_header", "not valid JSON"],
  ["an envelope header that is a JSON array", '[{"event_id":"x"}]\n', "invalid_envelope_header", "a JSON array"],
  ["an envelope header that is a JSON string", '"{}"\n', "invalid_envelope_header", "a JSON string"],
  ["an envelope header that ends in \\r\\n", '{}\r\n{"type":"event"}\n{}', "invalid_envelope_header", "\\r\\n"],
  ["an envelope header with leading whitespace", ' {}\n{"type":"event"}\n{}', "invalid_envelope_header", "whitespace"],
  ["a malformed event_id", '{"event_id":"not-a-uuid"}\n', "invalid_envelope_header", "event_id must be a UUID"],
  ["a dsn that is not a string", '{"dsn":42}\n', "invalid_envelope_header", "dsn must be a string"],
  ["an item header that is not JSON", '{}\n{"type":event}\n{}', "invalid_item_header", "item 1 is not valid JSON"],
  ["an item header that is a JSON array", '{}\n["event"]\n{}', "invalid_item_header", "a JSON array"],
  ["an item header without type", '{}\n{"length":2}\n{}', "invalid_item_header", "type is required"],
  ["an item header with an empty type", '{}\n{"type":""}\n', "invalid_item_header", "type is required"],
  ["a negative length", '{}\n{"type":"attachment","length":-1}\n', "invalid_item_header", "length must be a non-negative integer"],
  ["a string length", '{}\n{"type":"attachment","length":"2"}\nab', "invalid_item_header", "length must be a non-negative integer"],
  ["a fractional length", '{}\n{"type":"attachment","length":1.5}\nab', "invalid_item_header", "length must be"],
  ["a bad item_count", '{}\n{"type":"span","item_count":"2"}\n{}', "invalid_item_header", "item_count must be"],
  ["an item header cut off at EOF", '{}\n{"type":"eve', "invalid_item_header", "not valid JSON"],
  ["a blank line between items", '{}\n{"type":"event"}\n{}\n\n{"type":"event"}\n{}', "invalid_item_header", "blank lines"],
  ["two trailing newlines", '{}\n{"type":"event"}\n{}\n\n', "invalid_item_header", "blank lines"],
  ["whitespace after the final newline", '{}\n{"type":"event"}\n{}\n ', "invalid_item_header", "not valid JSON"],
  ["the internal item type integration", '{}\n{"type":"integration"}\n{}', "internal_item_type", "internal to Relay"],
  ["a length shorter than the payload", '{}\n{"type":"attachment","length":3}\nhello', "missing_newline", "found byte 0x6c"],
  ["a length-prefixed payload followed by \\r\\n", '{}\n{"type":"attachment","length":5}\nhello\r\n', "missing_newline", "found '\\r'"],
  ["a length longer than the payload", '{}\n{"type":"attachment","length":10}\nhello', "unexpected_eof", "declares length 10 but only 5"],
  [
    "a payload cut off before its declared length",
    '{}\n{"type":"event","length":50}\n{"message":',
    "unexpected_eof",
    "only 11 payload bytes",
  ],
  ["an item header with a length at EOF", '{}\n{"type":"attachment","length":5}', "unexpected_eof", "only 0 payload bytes"],
];

describe("EnvelopeParser on malformed envelopes", () => {
  it.each(invalid)("rejects %s", (_name, input, reason, phrase) => {
    const outcome = parseWhole(input);
    if (outcome.ok) throw new Error("accepted");
    expect(outcome.reason).toBe(reason);
    expect(outcome.message).toContain(phrase);
  });

  it("rejects a header line that is not valid UTF-8", () => {
    const outcome = parseWhole(Buffer.concat([Buffer.from('{"sdk":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_envelope_header" });
  });

  it("reports the byte offset of the bad item header", () => {
    const outcome = parseWhole('{}\n{"type":"event"}\n{}\nnot json\n');
    expect(outcome).toMatchObject({ ok: false, reason: "invalid_item_header", offset: 23 });
  });

  it("rethrows the first error on every later call", () => {
    const parser = new EnvelopeParser({});
    let first: unknown;
    try {
      parser.push(Buffer.from("[]\n"));
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(EnvelopeError);
    expect(thrownBy(() => parser.push(Buffer.from("{}")))).toBe(first);
    expect(thrownBy(() => parser.end())).toBe(first);
  });

  it("validates with an empty visitor, dropping each buffered payload as it ends", () => {
    const parser = new EnvelopeParser({});
    parser.push(fixture("node-event-attachment.envelope"));
    parser.push(Buffer.from('\n{"type":"check_in","length":2}\n{}\n{"type":"event"}\n{}'));
    parser.end();
    expect(parser.itemsRead).toBe(4);
    expect(parser.bufferedBytes).toBe(0);
  });

  it("accepts plain Uint8Array chunks, not only Buffers", () => {
    const bytes = new Uint8Array(fixture("node-session.envelope"));
    const types: string[] = [];
    const parser = new EnvelopeParser({ onItem: (i) => types.push(i.header.type) });
    parser.push(bytes.subarray(0, 50));
    parser.push(bytes.subarray(50));
    parser.end();
    expect(types).toEqual(["session"]);
  });

  it("throws the error from parseEnvelope too", () => {
    expect(() => parseEnvelope(Buffer.from("[]"))).toThrow(EnvelopeError);
  });
});

describe("statusOf", () => {
  const err = (reason: ConstructorParameters<typeof EnvelopeError>[0]) => new EnvelopeError(reason, "x", { offset: 0 });

  it("maps size and count overflows to 413", () => {
    expect(statusOf(err("too_large"))).toBe(413);
    expect(statusOf(err("too_many_items"))).toBe(413);
  });

  it("maps every framing error to 400", () => {
    for (const r of [
      "invalid_envelope_header",
      "invalid_item_header",
      "missing_newline",
      "unexpected_eof",
      "internal_item_type",
    ] as const) {
      expect(statusOf(err(r))).toBe(400);
    }
  });

  it("is part of the core error hierarchy with a matching code", () => {
    expect(err("too_large")).toBeInstanceOf(TelltaleError);
    expect(err("too_large").code).toBe("too_large");
    expect(err("missing_newline").code).toBe("invalid_input");
  });
});

describe("parseEnvelope on real SDK envelopes", () => {
  it("reads a @sentry/node error event sent without length", () => {
    const env = parseEnvelope(fixture("node-event.envelope"));
    expect(env.header.eventId).toBe("344bc6b7045941e594784c79f65fe157");
    expect(env.header.sdk).toEqual({ name: "sentry.javascript.node", version: "11.1.0" });
    expect(env.header.trace?.public_key).toBe("0123456789abcdef0123456789abcdef");
    expect(env.header.sentAt?.toISOString()).toBe("2026-11-22T07:07:46.409Z");
    expect(env.items).toHaveLength(1);
    expect(env.items[0]?.header).toMatchObject({ type: "event", knownType: "event", length: undefined });
    const event = JSON.parse(env.items[0]?.payload.toString() ?? "") as { exception: { values: Array<{ type: string }> } };
    expect(event.exception.values[0]?.type).toBe("SyntaxError");
  });

  it("reads a @sentry/node span v2 container with its item_count", () => {
    const env = parseEnvelope(fixture("node-span-v2.envelope"));
    expect(env.items[0]?.header).toMatchObject({
      type: "span",
      itemCount: 2,
      contentType: "application/vnd.sentry.items.span.v2+json",
    });
    const payload = JSON.parse(env.items[0]?.payload.toString() ?? "") as { version: number; items: unknown[] };
    expect(payload.version).toBe(2);
    expect(payload.items).toHaveLength(2);
    expect(env.header.trace).toMatchObject({ transaction: "GET /users", sampled: "true", sample_rate: "1" });
  });

  it("reads a @sentry/node log container", () => {
    const env = parseEnvelope(fixture("node-logs.envelope"));
    expect(env.items[0]?.header).toMatchObject({ type: "log", itemCount: 2, contentType: "application/vnd.sentry.items.log+json" });
    expect((JSON.parse(env.items[0]?.payload.toString() ?? "") as { items: unknown[] }).items).toHaveLength(2);
  });

  it("reads a @sentry/node session without length", () => {
    const env = parseEnvelope(fixture("node-session.envelope"));
    expect(env.header.eventId).toBeUndefined();
    expect(env.items.map((i) => i.header.type)).toEqual(["session"]);
    expect(JSON.parse(env.items[0]?.payload.toString() ?? "")).toMatchObject({ status: "ok", attrs: { release: "demo@1.0.0" } });
  });

  it("reads a @sentry/node event with an attachment holding \\n and a final \\r\\n", () => {
    const env = parseEnvelope(fixture("node-event-attachment.envelope"));
    expect(env.items.map((i) => i.header.type)).toEqual(["event", "attachment"]);
    expect(env.items[1]?.header).toMatchObject({ filename: "notes.txt", contentType: "text/plain", length: 19 });
    expect(env.items[1]?.payload.toString()).toBe("line one\nline two\r\n");
  });

  it("reads a @sentry/node client report under an empty {} header", () => {
    const env = parseEnvelope(fixture("node-client-report.envelope"));
    expect(env.header.raw).toEqual({});
    expect(JSON.parse(env.items[0]?.payload.toString() ?? "")).toMatchObject({
      discarded_events: [{ reason: "before_send", category: "error", quantity: 1 }],
    });
  });

  it("reads @sentry/browser event and feedback envelopes", () => {
    const event = parseEnvelope(fixture("browser-event.envelope"));
    expect(event.header.sdk?.name).toBe("sentry.javascript.browser");
    expect(event.items.map((i) => i.header.type)).toEqual(["event"]);
    const feedback = parseEnvelope(fixture("browser-feedback.envelope"));
    expect(feedback.items[0]?.header.knownType).toBe("feedback");
    expect(JSON.parse(feedback.items[0]?.payload.toString() ?? "")).toMatchObject({
      contexts: { feedback: { message: "The button does nothing" } },
    });
  });

  it("returns payloads as views into the body, without copying", () => {
    const body = fixture("node-event-attachment.envelope");
    const env = parseEnvelope(body);
    for (const i of env.items) expect(i.payload.buffer).toBe(body.buffer);
  });
});

describe("EnvelopeParser on input split into chunks", () => {
  const corpus: Array<[string, Buffer, EnvelopeLimits?]> = [
    ...valid.map(([name, input]): [string, Buffer] => [name, typeof input === "string" ? Buffer.from(input, "latin1") : input]),
    ...invalid.map(([name, input]): [string, Buffer] => [name, Buffer.from(input)]),
    ...FIXTURES.map((name): [string, Buffer] => [name, fixture(name)]),
    ["an event over a small maxEventBytes", Buffer.from('{}\n{"type":"event"}\n' + "x".repeat(200)), limitsWith({ maxEventBytes: 100 })],
    ["an envelope over a small maxEnvelopeBytes", fixture("node-event.envelope"), limitsWith({ maxEnvelopeBytes: 1000 })],
    ["a header line over a small maxHeaderBytes", fixture("node-event.envelope"), limitsWith({ maxHeaderBytes: 200 })],
  ];

  it.each(corpus)("gives the same result wherever one split falls: %s", (_name, bytes, limits) => {
    const whole = parseWhole(bytes, limits);
    for (let i = 0; i <= bytes.length; i++) {
      const split2 = parseChunks([bytes.subarray(0, i), bytes.subarray(i)], limits);
      if (JSON.stringify(split2) !== JSON.stringify(whole)) expect({ splitAt: i, outcome: split2 }).toEqual({ splitAt: i, outcome: whole });
    }
  });

  it.each(corpus)("gives the same result one byte at a time and in random pieces: %s", (_name, bytes, limits) => {
    const whole = parseWhole(bytes, limits);
    expect(parseChunks(split(bytes, 1), limits)).toEqual(whole);
    const random = prng(bytes.length);
    for (let round = 0; round < 100; round++) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * (bytes.length + 1))).sort(
        (a, b) => a - b,
      );
      const pieces = [0, ...cuts].map((from, k) => bytes.subarray(from, cuts[k] ?? bytes.length));
      const outcome = parseChunks(pieces, limits);
      if (JSON.stringify(outcome) !== JSON.stringify(whole)) expect({ cuts, outcome }).toEqual({ cuts, outcome: whole });
    }
  });
});
