import type { IncomingMessage } from "node:http";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

export type BodyResult = { ok: true; body: Buffer } | { ok: false; status: 400 | 413 | 415; reason: string };

/** The decoder for a content-encoding; identity for the empty and "UTF-8" values some SDKs send. */
export function decoderFor(encoding: string | undefined): Transform | null | "unsupported" {
  const value = (encoding ?? "").trim().toLowerCase();
  // sentry-ruby 5 sends an empty value, sentry-java 2.0 sends "UTF-8": both mean identity (reference §2.5).
  if (value === "" || value === "identity" || value === "utf-8") return null;
  if (value === "gzip" || value === "x-gzip") return createGunzip();
  if (value === "deflate") return createInflate();
  if (value === "br") return createBrotliDecompress();
  return "unsupported";
}

/**
 * Reads a request body, decompressing as it arrives. Both the bytes on the wire and the
 * decompressed bytes are counted while streaming, so neither a large upload nor a small
 * compression bomb can grow past its limit in memory. On failure the rest of the request
 * is drained (not buffered) so the client can read the answer.
 */
export function readIngestBody(req: IncomingMessage, maxWire: number, maxDecoded: number): Promise<BodyResult> {
  const decoder = decoderFor(req.headers["content-encoding"]);
  if (decoder === "unsupported") {
    req.resume();
    return Promise.resolve({ ok: false, status: 415, reason: `unsupported content-encoding '${req.headers["content-encoding"]}'` });
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxWire) {
    req.resume();
    return Promise.resolve({ ok: false, status: 413, reason: `request body of ${declared} bytes exceeds the limit of ${maxWire}` });
  }

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let wire = 0;
    let decoded = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      if (!result.ok) req.resume();
      resolve(result);
    };
    req.on("data", (chunk: Buffer) => {
      wire += chunk.length;
      if (wire > maxWire) finish({ ok: false, status: 413, reason: `request body exceeds the limit of ${maxWire} bytes` });
    });
    req.on("error", () => finish({ ok: false, status: 400, reason: "the request body was cut off" }));
    req.on("aborted", () => finish({ ok: false, status: 400, reason: "the request body was cut off" }));
    const out = decoder ?? req;
    if (decoder) {
      decoder.on("data", (chunk: Buffer) => collect(chunk));
      decoder.on("error", (e: Error) => finish({ ok: false, status: 400, reason: `invalid ${req.headers["content-encoding"]} body: ${e.message}` }));
      req.pipe(decoder);
    } else {
      req.on("data", (chunk: Buffer) => collect(chunk));
    }
    out.on("end", () => finish({ ok: true, body: Buffer.concat(chunks) }));

    function collect(chunk: Buffer) {
      if (done) return;
      decoded += chunk.length;
      if (decoded > maxDecoded) finish({ ok: false, status: 413, reason: `decompressed body exceeds the limit of ${maxDecoded} bytes` });
      else chunks.push(chunk);
    }
  });
}
