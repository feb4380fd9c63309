import { Readable } from "node:stream";
import { createGunzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EnvelopeError } from "./errors";
import { parseEnvelope } from "./parse-envelope";
import type { EnvelopeLimits } from "./limits";
import { envelopeEvents, readEnvelope, type EnvelopeEvent } from "./read-envelope";
import { fixture, fixtureNames, limitsWith, split } from "../../../test/support/envelope-parser";

async function collect(source: AsyncIterable<Uint8Array>, limits?: EnvelopeLimits): Promise<EnvelopeEvent[]> {
  const events: EnvelopeEvent[] = [];
  for await (const event of readEnvelope(source, limits)) events.push(event);
  return events;
}

/** The events a consumer sees before the error, if any, and the error's reason. */
async function consumed(events: AsyncIterable<EnvelopeEvent> | Iterable<EnvelopeEvent>) {
  const seen: string[] = [];
  try {
    for await (const event of events) seen.push(JSON.stringify(event));
    return { seen, error: null };
  } catch (error) {
    return { seen, error: error instanceof EnvelopeError ? error.reason : String(error) };
  }
}

describe("readEnvelope", () => {
  it("reads a gzip-compressed envelope straight from a decompression stream", async () => {
    const body = fixture("node-event-attachment.envelope");
    const gunzip = Readable.from(split(gzipSync(body), 100)).pipe(createGunzip({ chunkSize: 512 }));
    const events = await collect(gunzip);
    expect(events.map((e) => e.kind)).toEqual(["header", "item", "item_start", "item_chunk", "item_end"]);
    const whole = parseEnvelope(body);
    const event = events[1];
    expect(event?.kind === "item" && event.item.payload.equals(whole.items[0]?.payload ?? Buffer.alloc(0))).toBe(true);
    const chunk = events[3];
    expect(chunk?.kind === "item_chunk" && chunk.chunk.toString()).toBe("line one\nline two\r\n");
  });

  it("yields the events of one chunk before it reads the next", async () => {
    const reads: number[] = [];
    async function* source() {
      for (const [i, piece] of ['{}\n{"type":"event"}\n{}\n', '{"type":"session"}\n{}'].entries()) {
        reads.push(i);
        yield Buffer.from(piece);
      }
    }
    const seen: string[] = [];
    for await (const event of readEnvelope(source())) seen.push(`${event.kind}@${reads.length}`);
    expect(seen).toEqual(["header@1", "item@1", "item@2"]);
  });

  it("stops reading the source when the consumer breaks out", async () => {
    let pulled = 0;
    async function* source() {
      yield Buffer.from('{}\n{"type":"event"}\n{}\n');
      for (;;) {
        pulled += 1;
        yield Buffer.from('{"type":"event"}\n{}\n');
      }
    }
    for await (const event of readEnvelope(source())) if (event.kind === "item") break;
    expect(pulled).toBe(0);
  });

  it("throws the parser's EnvelopeError", async () => {
    await expect(collect(Readable.from([Buffer.from('{}\n{"type":"attachment","length":9}\nabc')]))).rejects.toBeInstanceOf(EnvelopeError);
  });
});

describe("envelopeEvents", () => {
  const once = (body: Buffer): AsyncIterable<Buffer> => ({
    async *[Symbol.asyncIterator]() {
      if (body.length > 0) yield body;
    },
  });
  const fixtures = fixtureNames();
  // Every fixture whole, cut off at a few points (errors at the end), and under limits it
  // breaks (errors in the middle): the same events in the same order, then the same error.
  const bodies = fixtures.flatMap((name) => {
    const body = fixture(name);
    return [0.3, 0.6, 0.95, 1].map(
      (part) => [`${name} (${Math.round(part * 100)} %)`, body.subarray(0, Math.floor(body.length * part))] as const,
    );
  });
  const tight = limitsWith({ maxEventBytes: 64, maxAttachmentBytes: 8, maxItemsCount: 1 });

  it.each(bodies)("yields what readEnvelope yields for %s held whole", async (_name, body) => {
    expect(await consumed(envelopeEvents(body))).toEqual(await consumed(readEnvelope(once(body))));
    expect(await consumed(envelopeEvents(body, tight))).toEqual(await consumed(readEnvelope(once(body), tight)));
  });

  it("yields nothing but the missing header's error for an empty body, as readEnvelope does", async () => {
    const empty = Buffer.alloc(0);
    expect(await consumed(envelopeEvents(empty))).toEqual(await consumed(readEnvelope(once(empty))));
  });
});
