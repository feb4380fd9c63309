import { createServer, request, type ClientRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { compress as zstdCompress } from "zstd-napi";
import { noise, zstdStreamed } from "../../../test/support/zstd-frames";
import { MemoryBudget } from "../../core/ingest/memory";
import { bodyRefusal, openIngestBody, readIngestBody } from "./body";
import { brotliDecoderMemory, HeldMemory, zstdFrameMemory } from "./decoder-memory";
import { zstdDecoded } from "./zstd-body";

const KiB = 1024;
const MiB = 1024 * KiB;
const WINDOW_MAX = 8 * MiB;

const brotli = (data: Buffer, lgwin: number) =>
  // Quality 2: brotli's two fastest qualities never use a window under 256 KiB.
  brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_LGWIN]: lgwin, [constants.BROTLI_PARAM_QUALITY]: 2 } });

describe("zstdFrameMemory", () => {
  it("reads the window of frames the real encoder writes, for every window up to the limit", () => {
    for (let windowLog = 10; windowLog <= 23; windowLog++) {
      const frame = zstdStreamed(noise(4 * KiB), windowLog);
      const window = 2 ** windowLog;
      expect(zstdFrameMemory(frame, WINDOW_MAX), `windowLog ${windowLog}`).toBe(window + 3 * Math.min(window, 128 * KiB));
    }
  });

  it("takes a single-segment frame's content size as its window", () => {
    const frame = zstdCompress(noise(5000));
    expect(zstdFrameMemory(frame, WINDOW_MAX)).toBe(5000 + 3 * 5000);
    const large = zstdCompress(noise(300 * KiB));
    expect(zstdFrameMemory(large, WINDOW_MAX)).toBe(300 * KiB + 3 * 128 * KiB);
  });

  it("waits for the whole header, and counts nothing for skippable frames, other bytes, or windows the decoder refuses", () => {
    const frame = zstdStreamed(noise(4 * KiB), 20);
    for (let cut = 0; cut < 6; cut++) expect(zstdFrameMemory(frame.subarray(0, cut), WINDOW_MAX), `cut at ${cut}`).toBeNull();
    const skippable = Buffer.from([0x53, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);
    expect(zstdFrameMemory(skippable, WINDOW_MAX)).toBe(0);
    expect(zstdFrameMemory(Buffer.from('{"event_id":1}'), WINDOW_MAX)).toBe(0);
    expect(zstdFrameMemory(zstdStreamed(noise(4 * KiB), 24), WINDOW_MAX)).toBe(0);
  });
});

describe("brotliDecoderMemory", () => {
  it("reads the window of streams the real encoder writes, for every window brotli has", () => {
    for (let lgwin = 10; lgwin <= 24; lgwin++) {
      // Longer than the window, so that the encoder keeps the window asked for.
      const stream = brotli(noise(2 ** lgwin + 1000), lgwin);
      expect(brotliDecoderMemory(stream), `lgwin ${lgwin}`).toBe(2 ** lgwin + 128 * KiB);
    }
  });

  it("counts the largest window for an empty start", () => {
    expect(brotliDecoderMemory(Buffer.alloc(0))).toBe(16 * MiB + 128 * KiB);
  });
});

describe("zstdDecoded holding its window", () => {
  async function* parts(...bodies: Buffer[]): AsyncGenerator<Buffer> {
    for (const b of bodies) yield b;
  }

  it("holds the largest window of its frames, however the header is split, and refuses one the budget cannot hold", async () => {
    const small = zstdStreamed(noise(4 * KiB), 12);
    const large = zstdStreamed(noise(4 * KiB), 22);
    const budget = new MemoryBudget(64 * MiB);
    const held = new HeldMemory(budget);
    const out: Buffer[] = [];
    // The second frame's header arrives one byte at a time.
    const body = parts(small, ...Array.from(large, (b) => Buffer.from([b])));
    for await (const chunk of zstdDecoded(body, held)) out.push(chunk);
    expect(Buffer.concat(out)).toEqual(Buffer.concat([noise(4 * KiB), noise(4 * KiB)]));
    expect(budget.inUse).toBe(4 * MiB + 3 * 128 * KiB);
    held.release();
    expect(budget.inUse).toBe(0);

    const tight = new MemoryBudget(1 * MiB);
    const refused = new HeldMemory(tight);
    await expect(async () => {
      for await (const _ of zstdDecoded(parts(small, large), refused));
    }).rejects.toThrow("the server is at its ingest memory limit; retry later");
    refused.release();
    expect(tight.inUse).toBe(0);
  });
});

describe("streamed bodies hold their decoder's memory", () => {
  /** What the budget allows: two 8 MiB zstd windows and a little, not three. */
  const budget = new MemoryBudget(20 * MiB);
  let server: Server;
  let port: number;
  const open: ClientRequest[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const whole = req.url === "/whole";
      const read = whole
        ? readIngestBody(req, { maxWire: 64 * MiB, maxDecoded: 64 * MiB, memory: budget })
        : openIngestBody(req, { maxWire: 64 * MiB, memory: budget }).then(async (opened) => {
            if (!opened.ok) return opened;
            let length = 0;
            try {
              for await (const chunk of opened.stream) length += chunk.length;
              return { ok: true as const, length };
            } catch (error) {
              // As the ingest handler answers an error of the body it reads.
              const refusal = bodyRefusal(error, req);
              if (!refusal) throw error;
              return refusal;
            } finally {
              opened.release();
            }
          });
      void read.then((result) => {
        const summary = result.ok ? { ok: true, length: "body" in result ? result.body.length : result.length } : result;
        if ("release" in result) result.release();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(summary));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => {
    for (const r of open.splice(0)) r.destroy();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Starts a chunked upload of `first`; `finish` sends `rest` and reads the answer. */
  function upload(path: string, encoding: string, first: Buffer) {
    let answered: (v: Record<string, unknown>) => void = () => {};
    const answer = new Promise<Record<string, unknown>>((resolve) => (answered = resolve));
    const req = request({ host: "127.0.0.1", port, method: "POST", path, headers: { "content-encoding": encoding } }, (res) => {
      const got: Buffer[] = [];
      res.on("data", (c: Buffer) => got.push(c));
      res.on("end", () => answered(JSON.parse(Buffer.concat(got).toString("utf8")) as Record<string, unknown>));
    });
    req.on("error", () => {});
    open.push(req);
    req.write(first);
    return {
      answer,
      finish(rest: Buffer) {
        req.end(rest);
        return answer;
      },
    };
  }

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it("holds each slow zstd body's 8 MiB window, refuses the body the budget cannot hold with 503, and gives all back", async () => {
    const data = noise(200 * KiB);
    const body = zstdStreamed(data, 23);
    // Past the bytes read whole, so that the body is streamed while the rest has not come.
    const cut = 80 * KiB;
    expect(body.length).toBeGreaterThan(cut);
    const first = upload("/streamed", "zstd", body.subarray(0, cut));
    await until(() => budget.inUse >= 8 * MiB);
    const second = upload("/streamed", "zstd", body.subarray(0, cut));
    await until(() => budget.inUse >= 16 * MiB);
    const third = upload("/streamed", "zstd", body.subarray(0, cut));
    expect(await third.answer).toEqual({ ok: false, status: 503, reason: "the server is at its ingest memory limit; retry later" });
    expect(await first.finish(body.subarray(cut))).toEqual({ ok: true, length: data.length });
    expect(await second.finish(body.subarray(cut))).toEqual({ ok: true, length: data.length });
    await until(() => budget.inUse === 0);
  });

  it("holds a slow brotli body's window from its first byte", async () => {
    const data = noise(200 * KiB);
    const body = brotli(data, 24);
    const cut = 80 * KiB;
    const slow = upload("/streamed", "br", body.subarray(0, cut));
    await until(() => budget.inUse === 16 * MiB + 128 * KiB);
    const next = upload("/streamed", "br", body.subarray(0, cut));
    expect(await next.answer).toMatchObject({ ok: false, status: 503 });
    expect(await slow.finish(body.subarray(cut))).toEqual({ ok: true, length: data.length });
    await until(() => budget.inUse === 0);
  });

  it("holds nothing for a body read whole, whatever window its header names", async () => {
    const data = noise(20 * KiB);
    for (const [encoding, body] of [
      ["zstd", zstdStreamed(data, 23)],
      ["br", brotli(data, 24)],
    ] as const) {
      expect(body.length).toBeLessThan(64 * KiB);
      const sent = upload("/streamed", encoding, body);
      expect(await sent.finish(Buffer.alloc(0))).toEqual({ ok: true, length: data.length });
    }
    expect(budget.inUse).toBe(0);
  });

  it("holds the bytes a whole-body read keeps, and refuses one past the budget with 503", async () => {
    const fits = noise(6 * MiB);
    expect(await upload("/whole", "identity", fits).finish(Buffer.alloc(0))).toEqual({ ok: true, length: fits.length });
    expect(budget.inUse).toBe(0);
    const tooMuch = noise(24 * MiB);
    expect(await upload("/whole", "identity", tooMuch).finish(Buffer.alloc(0))).toEqual({
      ok: false,
      status: 503,
      reason: "the server is at its ingest memory limit; retry later",
    });
    await until(() => budget.inUse === 0);
  });
});
