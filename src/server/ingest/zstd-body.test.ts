import { compress, Compressor } from "zstd-napi";
import { describe, expect, it } from "vitest";
import { ZSTD_WINDOW_LOG_MAX, zstdDecoded } from "./zstd-body";

const MiB = 1024 * 1024;

async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield part;
}

async function decodeAll(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of zstdDecoded(body)) out.push(chunk);
  return Buffer.concat(out);
}

const text = Buffer.from("an envelope's bytes ".repeat(5000));

describe("zstdDecoded", () => {
  it("decodes a frame split anywhere, and frames one after another", async () => {
    const frame = compress(text);
    expect(await decodeAll(chunks(frame))).toEqual(text);
    const cut = [1, 5, 17, frame.length - 3];
    const parts = cut.map((at, i) => frame.subarray(i === 0 ? 0 : cut[i - 1], at)).concat(frame.subarray(cut.at(-1)));
    expect(await decodeAll(chunks(...parts))).toEqual(text);
    expect(await decodeAll(chunks(frame, compress(Buffer.from("second"))))).toEqual(Buffer.concat([text, Buffer.from("second")]));
  });

  it("decodes only as far as it is read: a bomb's later frames are never pulled", async () => {
    // 100 frames of 8 MiB of zeros each: 800 MiB from a few kilobytes.
    const frame = compress(Buffer.alloc(8 * MiB));
    expect(frame.length).toBeLessThan(4096);
    let pulled = 0;
    async function* bomb(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield frame;
      }
    }
    let decoded = 0;
    for await (const chunk of zstdDecoded(bomb())) {
      decoded += chunk.length;
      if (decoded >= MiB) break;
    }
    expect(decoded).toBeLessThan(2 * MiB);
    expect(pulled).toBe(1);
  });

  it("refuses a frame whose window is larger than the limit", async () => {
    const wide = new Compressor();
    wide.setParameters({ windowLog: ZSTD_WINDOW_LOG_MAX + 2 });
    // Varied bytes, so that the frame really needs its window.
    const data = Buffer.alloc(40 * MiB);
    for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
    await expect(decodeAll(chunks(wide.compress(data)))).rejects.toThrow(/memory|window/i);
  });

  it("refuses a truncated body, trailing garbage and an empty body", async () => {
    const frame = compress(text);
    await expect(decodeAll(chunks(frame.subarray(0, frame.length - 10)))).rejects.toThrow("the body ends inside a zstd frame");
    await expect(decodeAll(chunks(frame, Buffer.from("trailing garbage")))).rejects.toThrow();
    await expect(decodeAll(chunks())).rejects.toThrow("the body holds no zstd frame");
    await expect(decodeAll(chunks(Buffer.from("not zstd at all")))).rejects.toThrow();
  });
});
