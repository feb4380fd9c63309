import { describe, expect, it } from "vitest";
import { normalizeEventId, parseHeaderLine, readEnvelopeHeader, readItemHeader } from "./headers";

describe("normalizeEventId", () => {
  it.each([
    ["9ec79c33ec9942ab8353589fcb2e04dc", "9ec79c33ec9942ab8353589fcb2e04dc"],
    ["9EC79C33EC9942AB8353589FCB2E04DC", "9ec79c33ec9942ab8353589fcb2e04dc"],
    ["9ec79c33-ec99-42ab-8353-589fcb2e04dc", "9ec79c33ec9942ab8353589fcb2e04dc"],
    ["9ec79c33ec99-42ab-8353-589fcb2e04dc", null],
    ["9ec79c33ec9942ab8353589fcb2e04d", null],
    ["zzc79c33ec9942ab8353589fcb2e04dc", null],
  ])("normalizes %s to %s", (input, expected) => {
    expect(normalizeEventId(input)).toBe(expected);
  });
});

describe("readEnvelopeHeader", () => {
  it("reads the known fields and keeps every key in raw", () => {
    const raw = {
      event_id: "9EC79C33-EC99-42AB-8353-589FCB2E04DC",
      dsn: "https://key@example.com/1",
      sent_at: "2026-11-22T07:07:46.409Z",
      sdk: { name: "sentry.javascript.node", version: "11.1.0", integrations: ["Http"] },
      trace: { trace_id: "ae313be4fe8842f3855b0845bf01e726", public_key: "key", sample_rate: 0.5, sampled: true, custom: "x" },
      future_header: 1,
    };
    const result = readEnvelopeHeader(raw);
    expect(result).toEqual({
      ok: true,
      value: {
        eventId: "9ec79c33ec9942ab8353589fcb2e04dc",
        dsn: "https://key@example.com/1",
        sentAt: new Date("2026-11-22T07:07:46.409Z"),
        sdk: { name: "sentry.javascript.node", version: "11.1.0" },
        trace: { trace_id: "ae313be4fe8842f3855b0845bf01e726", public_key: "key", sample_rate: "0.5", sampled: "true" },
        raw,
      },
    });
  });

  it("leaves a malformed sent_at, sdk or trace out of the view instead of rejecting", () => {
    const result = readEnvelopeHeader({ sent_at: "yesterday", sdk: { name: "x" }, trace: "nope" });
    expect(result).toMatchObject({ ok: true, value: { sentAt: undefined, sdk: undefined, trace: undefined } });
  });

  it("rejects an event_id that is not a UUID and a dsn that is not a string", () => {
    expect(readEnvelopeHeader({ event_id: 42 }).ok).toBe(false);
    expect(readEnvelopeHeader({ event_id: "abc" }).ok).toBe(false);
    expect(readEnvelopeHeader({ dsn: ["https://key@example.com/1"] }).ok).toBe(false);
  });

  it("treats a null event_id or dsn as absent", () => {
    expect(readEnvelopeHeader({ event_id: null, dsn: null })).toMatchObject({ ok: true, value: { eventId: undefined, dsn: undefined } });
  });
});

describe("readItemHeader", () => {
  it("reads type, length, item_count and attachment fields", () => {
    const raw = {
      type: "attachment",
      length: 5,
      filename: "a.txt",
      attachment_type: "event.minidump",
      content_type: "text/plain",
      extra: true,
    };
    expect(readItemHeader(raw)).toEqual({
      ok: true,
      value: {
        type: "attachment",
        knownType: "attachment",
        length: 5,
        itemCount: undefined,
        contentType: "text/plain",
        filename: "a.txt",
        attachmentType: "event.minidump",
        raw,
      },
    });
  });

  it("keeps an unknown type verbatim with knownType null", () => {
    expect(readItemHeader({ type: "profile_chunk_ui" })).toMatchObject({ ok: true, value: { type: "profile_chunk_ui", knownType: null } });
  });
});

describe("parseHeaderLine", () => {
  it("accepts a compact JSON object", () => {
    expect(parseHeaderLine(Buffer.from('{"a":[1,{"b":null}]}'))).toEqual({ ok: true, value: { a: [1, { b: null }] } });
  });

  it.each([
    ["", "empty line"],
    ["null", "is null"],
    ["42", "a JSON number"],
    ["[]", "a JSON array"],
    ["{}\r", "whitespace"],
    ["{} ", "whitespace"],
    ['{"a":1', "not valid JSON"],
  ])("rejects %j", (line, problem) => {
    const result = parseHeaderLine(Buffer.from(line));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(problem);
  });
});
