import { Readable } from "node:stream";
import { createGunzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EnvelopeError } from "./errors";
import { parseEnvelope } from "./parse-envelope";
import { readEnvelope, type EnvelopeEvent } from "./read-envelope";
import { fixture, split } from "./test-support";

async function collect(source: AsyncIterable<Uint8Array>): Promise<EnvelopeEvent[]> {
  const events: EnvelopeEvent[] = [];
  for await (const event of readEnvelope(source)) events.push(event);
  return events;
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
