import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compress as zstdCompress } from "zstd-napi";
import { readIngestBody, type BodyResult } from "./body";

const MAX_WIRE = 4096;
const MAX_DECODED = 8192;

interface Sent {
  body: Buffer;
  headers?: Record<string, string>;
  /** Send in chunks without content-length (chunked transfer encoding). */
  chunked?: boolean;
}

describe("readIngestBody", () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // Answers with what readIngestBody returned, the body replaced by its length and text.
    server = createServer((req, res) => {
      void readIngestBody(req, { maxWire: MAX_WIRE, maxDecoded: MAX_DECODED }).then((result) => {
        const summary = result.ok ? { ok: true, text: result.body.toString("utf8"), length: result.body.length } : result;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(summary));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  type Summary = { ok: true; text: string; length: number } | Extract<BodyResult, { ok: false }>;

  function send({ body, headers = {}, chunked = false }: Sent): Promise<Summary> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/",
          headers: chunked ? headers : { ...headers, "content-length": String(body.length) },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => resolve(JSON.parse(Buffer.concat(parts).toString("utf8")) as Summary));
        },
      );
      req.on("error", reject);
      if (chunked) {
        for (let i = 0; i < body.length; i += 1000) req.write(body.subarray(i, i + 1000));
        req.end();
      } else req.end(body);
    });
  }

  const text = "envelope text ".repeat(100);

  it("returns an uncompressed body as sent", async () => {
    expect(await send({ body: Buffer.from(text) })).toEqual({ ok: true, text, length: text.length });
  });

  it.each([
    ["gzip", gzipSync],
    ["x-gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
    ["zstd", zstdCompress],
  ])("decompresses a %s body", async (encoding, compress) => {
    expect(await send({ body: compress(Buffer.from(text)), headers: { "content-encoding": encoding } })).toEqual({
      ok: true,
      text,
      length: text.length,
    });
  });

  it.each(["identity", "UTF-8", " GZIP "])("understands the content-encoding %j that SDKs send", async (encoding) => {
    const body = encoding.trim().toLowerCase() === "gzip" ? gzipSync(Buffer.from(text)) : Buffer.from(text);
    expect(await send({ body, headers: { "content-encoding": encoding } })).toMatchObject({ ok: true, text });
  });

  it("refuses an unknown content-encoding with 415", async () => {
    expect(await send({ body: Buffer.from(text), headers: { "content-encoding": "compress" } })).toEqual({
      ok: false,
      status: 415,
      reason: "unsupported content-encoding 'compress'",
    });
  });

  it("refuses a declared content-length above the wire limit with 413 before reading", async () => {
    expect(await send({ body: Buffer.alloc(MAX_WIRE + 1, 0x61) })).toMatchObject({ ok: false, status: 413 });
  });

  it("refuses a chunked body that grows past the wire limit with 413", async () => {
    expect(await send({ body: Buffer.alloc(MAX_WIRE + 1, 0x61), chunked: true })).toEqual({
      ok: false,
      status: 413,
      reason: `request body exceeds the limit of ${MAX_WIRE} bytes`,
    });
  });

  it("accepts a body of exactly the wire limit", async () => {
    expect(await send({ body: Buffer.alloc(MAX_WIRE, 0x61), chunked: true })).toMatchObject({ ok: true, length: MAX_WIRE });
  });

  it("refuses a small compressed body that decompresses past the limit with 413", async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_DECODED * 100));
    expect(bomb.length).toBeLessThan(MAX_WIRE);
    expect(await send({ body: bomb, headers: { "content-encoding": "gzip" } })).toEqual({
      ok: false,
      status: 413,
      reason: `decompressed body exceeds the limit of ${MAX_DECODED} bytes`,
    });
  });

  it("accepts a compressed body that decompresses to exactly the limit", async () => {
    expect(await send({ body: gzipSync(Buffer.alloc(MAX_DECODED)), headers: { "content-encoding": "gzip" } })).toMatchObject({
      ok: true,
      length: MAX_DECODED,
    });
  });

  it("refuses a body that is not what its content-encoding says with 400", async () => {
    expect(await send({ body: Buffer.from(text), headers: { "content-encoding": "gzip" } })).toMatchObject({
      ok: false,
      status: 400,
      reason: expect.stringMatching(/^invalid gzip body: /),
    });
  });
});

describe("readIngestBody past the bodies it reads whole", () => {
  const WIRE = 1024 * 1024;
  const DECODED = 4 * 1024 * 1024;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((req, res) => {
      void readIngestBody(req, { maxWire: WIRE, maxDecoded: DECODED }).then((result) => {
        const summary = result.ok ? { ok: true, length: result.body.length, sum: result.body.reduce((s, b) => s + b, 0) } : result;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(summary));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function post(body: Buffer, headers: Record<string, string>, chunkSize: number | null): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/",
          headers: chunkSize ? headers : { ...headers, "content-length": String(body.length) },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => resolve(JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>));
        },
      );
      req.on("error", reject);
      if (chunkSize) {
        for (let i = 0; i < body.length; i += chunkSize) req.write(body.subarray(i, i + chunkSize));
        req.end();
      } else req.end(body);
    });
  }

  // A body of bytes 0..250 repeated: a sum that a lost or repeated chunk would change.
  const pattern = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));
  const sumOf = (b: Buffer) => b.reduce((s, x) => s + x, 0);

  it("streams a chunked body longer than the whole-body read, keeping the bytes read first", async () => {
    const body = pattern(300 * 1024);
    expect(await post(body, {}, 7000)).toEqual({ ok: true, length: body.length, sum: sumOf(body) });
  });

  it("streams a declared body longer than the whole-body read", async () => {
    const body = pattern(200 * 1024);
    expect(await post(body, {}, null)).toEqual({ ok: true, length: body.length, sum: sumOf(body) });
  });

  it("decodes a small gzip body past what one call may decode as a stream, up to the reader's cap", async () => {
    const decoded = pattern(3 * 1024 * 1024);
    const body = gzipSync(decoded);
    expect(body.length).toBeLessThan(64 * 1024);
    expect(await post(body, { "content-encoding": "gzip" }, null)).toEqual({ ok: true, length: decoded.length, sum: sumOf(decoded) });
  });

  it("still refuses such a body past the reader's cap with 413", async () => {
    const body = gzipSync(Buffer.alloc(DECODED + 1));
    expect(await post(body, { "content-encoding": "gzip" }, null)).toEqual({
      ok: false,
      status: 413,
      reason: `decompressed body exceeds the limit of ${DECODED} bytes`,
    });
  });

  it("decodes a small deflate, brotli and zstd body", async () => {
    const decoded = pattern(5000);
    for (const [encoding, body] of [
      ["deflate", deflateSync(decoded)],
      ["br", brotliCompressSync(decoded)],
      ["zstd", zstdCompress(decoded)],
    ] as const)
      expect(await post(body, { "content-encoding": encoding }, null)).toEqual({ ok: true, length: decoded.length, sum: sumOf(decoded) });
  });

  it("streams a chunked zstd body longer than the whole-body read", async () => {
    // Bytes that do not repeat, so that the body stays longer than the whole-body read.
    const decoded = Buffer.alloc(512 * 1024);
    for (let i = 0; i < decoded.length; i += 4) decoded.writeUInt32LE((i * 2654435761) >>> 0, i);
    const body = zstdCompress(decoded);
    expect(body.length).toBeGreaterThan(64 * 1024);
    expect(await post(body, { "content-encoding": "zstd" }, 7000)).toEqual({ ok: true, length: decoded.length, sum: sumOf(decoded) });
  });

  it.each([
    ["read whole", null],
    ["streamed", 1000],
  ] as const)("refuses a zstd bomb past the reader's cap with 413 (%s)", async (_how, chunkSize) => {
    // Five frames of 64 MiB of zeros each, a few kilobytes on the wire.
    const frame = zstdCompress(Buffer.alloc(64 * 1024 * 1024));
    const body = Buffer.concat([frame, frame, frame, frame, frame]);
    expect(body.length).toBeLessThan(64 * 1024);
    expect(await post(body, { "content-encoding": "zstd" }, chunkSize)).toEqual({
      ok: false,
      status: 413,
      reason: `decompressed body exceeds the limit of ${DECODED} bytes`,
    });
  });

  it("refuses a truncated zstd body with 400", async () => {
    const body = zstdCompress(pattern(200 * 1024));
    expect(await post(body.subarray(0, body.length - 100), { "content-encoding": "zstd" }, 1000)).toEqual({
      ok: false,
      status: 400,
      reason: "invalid zstd body: the body ends inside a zstd frame",
    });
  });
});
