import { describe, expect, it } from "vitest";
import { EnvelopeError, statusOf } from "./errors";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from "./limits";
import { EnvelopeParser } from "./parser";
import { envelope, item, limitsWith, parseWhole } from "../../../test/support/envelope-parser";

const KiB = 1024;
const MiB = 1024 * KiB;

/** Pushes `chunks` until the parser throws; returns the error and how many chunks went in. */
function pushUntilError(parser: EnvelopeParser, chunks: Iterable<Buffer>): { error: EnvelopeError; pushed: number } {
  let pushed = 0;
  try {
    for (const c of chunks) {
      pushed += 1;
      parser.push(c);
    }
    parser.end();
  } catch (e) {
    if (e instanceof EnvelopeError) return { error: e, pushed };
    throw e;
  }
  throw new Error("the parser accepted the envelope");
}

function* repeat(chunk: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield chunk;
}

function rejected(input: string | Buffer, limits: EnvelopeLimits) {
  const outcome = parseWhole(input, limits);
  if (outcome.ok) throw new Error("accepted");
  return outcome;
}

describe("size limits while streaming", () => {
  it("rejects an implicit-length event with 413 on the chunk that crosses maxEventBytes, holding no more than the limit", () => {
    const parser = new EnvelopeParser({ onItem: () => expect.fail("the oversized event was delivered") });
    const prefix = Buffer.from('{}\n{"type":"event"}\n');
    const chunk = Buffer.alloc(64 * KiB, "a");
    const { error, pushed } = pushUntilError(parser, [prefix, ...repeat(chunk, 100)]);
    expect(error.reason).toBe("too_large");
    expect(error.limit).toBe("maxEventBytes");
    expect(statusOf(error)).toBe(413);
    expect(error.message).toContain("envelope exceeded size limits for type 'event'");
    // 1 MiB is exactly 16 chunks: the 17th crosses the limit.
    expect(pushed).toBe(1 + 17);
    expect(parser.peakBufferedBytes).toBeLessThanOrEqual(DEFAULT_ENVELOPE_LIMITS.maxEventBytes);
  });

  it("rejects a declared length above maxEventBytes at the item header, before any payload arrives", () => {
    const parser = new EnvelopeParser({});
    const header = Buffer.from(`{}\n{"type":"event","length":${2 * MiB}}\n`);
    expect(() => parser.push(header)).toThrow(/maxEventBytes \(1048576 bytes\)/);
    expect(parser.bytesRead).toBe(header.length);
    expect(parser.peakBufferedBytes).toBeLessThan(100);
  });

  it("applies maxTransactionBytes to transactions", () => {
    const out = rejected(envelope({}, item({ type: "transaction" }, "x".repeat(11))), limitsWith({ maxTransactionBytes: 10 }));
    expect(out).toMatchObject({ reason: "too_large", limit: "maxTransactionBytes" });
  });

  it("rejects the attachment that pushes all attachments past maxAttachmentsBytes at its header", () => {
    const limits = limitsWith({ maxAttachmentsBytes: 100 });
    const ok = envelope({}, item({ type: "attachment" }, "a".repeat(60)));
    expect(parseWhole(ok, limits).ok).toBe(true);
    const parser = new EnvelopeParser({}, limits);
    parser.push(Buffer.concat([ok, Buffer.from("\n")]));
    expect(() => parser.push(Buffer.from('{"type":"attachment","length":60}\n'))).toThrow(/maxAttachmentsBytes \(100 bytes\)/);
  });

  it("rejects a single attachment over maxAttachmentBytes", () => {
    const out = rejected('{}\n{"type":"attachment"}\n' + "a".repeat(11), limitsWith({ maxAttachmentBytes: 10 }));
    expect(out).toMatchObject({ reason: "too_large", limit: "maxAttachmentBytes" });
  });

  it("rejects a 31st attachment with too_many_items", () => {
    const items = Array.from({ length: 31 }, (_, i) => item({ type: "attachment", filename: `${i}.txt` }, "x"));
    const out = rejected(envelope({}, ...items), DEFAULT_ENVELOPE_LIMITS);
    expect(out).toMatchObject({ reason: "too_many_items", limit: "maxAttachmentsCount" });
    expect(parseWhole(envelope({}, ...items.slice(0, 30))).ok).toBe(true);
  });

  it("rejects a 101st session with too_many_items, counting session and sessions together", () => {
    const items = Array.from({ length: 101 }, (_, i) => item({ type: i % 2 ? "session" : "sessions" }, "{}", true));
    expect(rejected(envelope({}, ...items), DEFAULT_ENVELOPE_LIMITS)).toMatchObject({
      reason: "too_many_items",
      limit: "maxSessionsCount",
    });
  });

  it("rejects a client report over maxClientReportBytes", () => {
    const out = rejected(envelope({}, item({ type: "client_report" }, "x".repeat(100 * KiB + 1), true)), DEFAULT_ENVELOPE_LIMITS);
    expect(out).toMatchObject({ reason: "too_large", limit: "maxClientReportBytes" });
  });

  it("checks a span container by its average span size and by maxContainerBytes", () => {
    const limits = limitsWith({ maxSpanBytes: 100, maxContainerBytes: 1000 });
    const span = (count: number, bytes: number) => envelope({}, item({ type: "span", item_count: count }, "s".repeat(bytes)));
    expect(parseWhole(span(2, 200), limits).ok).toBe(true);
    expect(rejected(span(2, 201), limits)).toMatchObject({ reason: "too_large", limit: "maxSpanBytes" });
    expect(parseWhole(span(50, 1000), limits).ok).toBe(true);
    expect(rejected(span(50, 1001), limits)).toMatchObject({ reason: "too_large", limit: "maxContainerBytes" });
  });

  it("counts standalone span items against maxStandaloneSpansCount", () => {
    const spans = Array.from({ length: 26 }, () => item({ type: "span" }, "{}"));
    expect(rejected(envelope({}, ...spans), DEFAULT_ENVELOPE_LIMITS)).toMatchObject({ limit: "maxStandaloneSpansCount" });
  });

  it("rejects a log item over maxLogBytes", () => {
    const out = rejected(envelope({}, item({ type: "log" }, "l".repeat(11))), limitsWith({ maxLogBytes: 10 }));
    expect(out).toMatchObject({ reason: "too_large", limit: "maxLogBytes" });
  });

  it("stops at maxEnvelopeBytes even inside an unknown item, which has no cap of its own", () => {
    const input = '{}\n{"type":"custom"}\n' + "u".repeat(200);
    expect(rejected(input, limitsWith({ maxEnvelopeBytes: 100 }))).toMatchObject({
      reason: "too_large",
      limit: "maxEnvelopeBytes",
      offset: 100,
    });
    expect(parseWhole(input, limitsWith({ maxEnvelopeBytes: Buffer.byteLength(input) })).ok).toBe(true);
  });

  it("rejects a declared length that cannot fit in maxEnvelopeBytes at the item header", () => {
    const parser = new EnvelopeParser({}, limitsWith({ maxEnvelopeBytes: 1000 }));
    expect(() => parser.push(Buffer.from('{}\n{"type":"custom","length":5000}\n'))).toThrow(/maxEnvelopeBytes/);
  });

  it("rejects a header line longer than maxHeaderBytes without holding it", () => {
    const parser = new EnvelopeParser({});
    const { error } = pushUntilError(parser, [Buffer.from('{"junk":"'), ...repeat(Buffer.alloc(KiB, "j"), 200)]);
    expect(error).toMatchObject({ reason: "too_large", limit: "maxHeaderBytes" });
    expect(parser.peakBufferedBytes).toBeLessThanOrEqual(DEFAULT_ENVELOPE_LIMITS.maxHeaderBytes);
  });
});

describe("many items", () => {
  const tenThousand = envelope(
    { event_id: "9ec79c33ec9942ab8353589fcb2e04dc" },
    ...Array.from({ length: 10_000 }, (_, i) =>
      i % 2 ? item({ type: "event" }, `{"message":"m${i}"}`, true) : item({ type: "check_in" }, `{"check_in_id":"${i}"}`),
    ),
  );

  it("parses 10,000 items when maxItemsCount allows them", () => {
    let items = 0;
    const parser = new EnvelopeParser({ onItem: () => (items += 1) }, limitsWith({ maxItemsCount: 10_000 }));
    parser.push(tenThousand);
    parser.end();
    expect(items).toBe(10_000);
  });

  it("stops at the first item past the default maxItemsCount of 1000", () => {
    let items = 0;
    const parser = new EnvelopeParser({ onItem: () => (items += 1) });
    expect(() => parser.push(tenThousand)).toThrow(/more than maxItemsCount \(1000\)/);
    expect(items).toBe(1000);
    expect(parser.bytesRead).toBeLessThan(tenThousand.length / 9);
  });
});

describe("a 50 MiB attachment fed in 64 KiB chunks", () => {
  const size = 50 * MiB;
  const chunkSize = 64 * KiB;

  /** The envelope as a decompression stream would hand it over: fixed-size chunks, cut anywhere. */
  function* stream(): Generator<Buffer> {
    const head = Buffer.from(
      '{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}\n{"type":"event"}\n{"message":"crash"}\n' +
        `{"type":"attachment","length":${size},"filename":"core.dmp"}\n`,
    );
    const tail = Buffer.from('\n{"type":"session"}\n{"status":"crashed"}\n');
    const total = head.length + size + tail.length;
    for (let start = 0; start < total; start += chunkSize) {
      const chunk = Buffer.alloc(Math.min(chunkSize, total - start));
      for (let i = 0; i < chunk.length; i++) {
        const at = start + i;
        chunk[i] =
          at < head.length ? (head[at] ?? 0) : at >= head.length + size ? (tail[at - head.length - size] ?? 0) : (at - head.length) % 251;
      }
      yield chunk;
    }
  }

  it("streams the payload in chunks and never holds more than one small item", () => {
    const events: string[] = [];
    let bytes = 0;
    let expected = 0;
    let intact = true;
    let pushed: Buffer | undefined;
    let views = true;
    const parser = new EnvelopeParser({
      onItem: ({ header }) => events.push(header.type),
      onItemStart: (header) => events.push(`start ${header.type}`),
      onItemChunk: (chunk) => {
        views &&= chunk.buffer === pushed?.buffer;
        for (let i = 0; i < chunk.length; i++) intact &&= chunk[i] === expected++ % 251;
        bytes += chunk.length;
      },
      onItemEnd: ({ payloadBytes }) => events.push(`end ${payloadBytes}`),
    });
    for (const chunk of stream()) {
      pushed = chunk;
      parser.push(chunk);
    }
    parser.end();
    expect(events).toEqual(["event", "start attachment", `end ${size}`, "session"]);
    expect(bytes).toBe(size);
    expect(intact).toBe(true);
    expect(views).toBe(true);
    // Only header lines and the two small items were ever held, never any attachment bytes.
    expect(parser.peakBufferedBytes).toBeLessThan(100);
  });
});
