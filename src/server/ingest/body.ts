import type { IncomingMessage } from "node:http";
import { PassThrough, type Readable, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

export type BodyRefusal = { ok: false; status: 400 | 413 | 415; reason: string };
export type BodyResult = { ok: true; body: Buffer } | BodyRefusal;
export type OpenedBody = { ok: true; stream: Readable } | BodyRefusal;

/** The decoder for a content-encoding; identity for the empty and "UTF-8" values some SDKs send. */
export function decoderFor(encoding: string | undefined): Transform | null | "unsupported" {
  const value = (encoding ?? "").trim().toLowerCase();
  // sentry-ruby 5 sends an empty value, sentry-java 2.0 sends "UTF-8": both mean identity (docs/protocol.md#content-encoding).
  if (value === "" || value === "identity" || value === "utf-8") return null;
  if (value === "gzip" || value === "x-gzip") return createGunzip();
  if (value === "deflate") return createInflate();
  if (value === "br") return createBrotliDecompress();
  return "unsupported";
}

/** Errors the body stream raises; `bodyRefusal` turns each into its answer. */
class WireLimitError extends Error {}
class ClientGoneError extends Error {}
/** Errors the content decoder raised: a corrupt gzip, deflate or br body (brotli's codes are not `Z_*`). */
const decodeErrors = new WeakSet<Error>();

/**
 * The one place the wire side of an ingest body is checked: the content-encoding (415) and
 * a declared content-length over `maxWire` (413) before anything is read, then the bytes that
 * actually arrive, counted while streaming (a chunked body declares nothing). Returns the
 * decompressed stream; the decompressed bytes are capped by whoever reads it (the envelope
 * parser, or `readIngestBody`). `limitName` names the setting in the 413's reason.
 */
export function openIngestBody(req: IncomingMessage, maxWire: number, limitName?: string): OpenedBody {
  const setting = limitName ? ` (${limitName})` : "";
  const decode = decoderFor(req.headers["content-encoding"]);
  if (decode === "unsupported") {
    req.resume();
    // RFC 9110 §15.5.16: 415 for a content coding the server does not understand.
    return { ok: false, status: 415, reason: `unsupported content-encoding '${req.headers["content-encoding"]}'` };
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxWire) {
    req.resume();
    return { ok: false, status: 413, reason: `request body of ${declared} bytes exceeds the limit of ${maxWire} bytes${setting}` };
  }
  let wire = 0;
  const counted = new PassThrough();
  req.on("data", (chunk: Buffer) => {
    wire += chunk.length;
    if (wire > maxWire) counted.destroy(new WireLimitError(`request body exceeds the limit of ${maxWire} bytes${setting}`));
  });
  req.on("aborted", () => counted.destroy(new ClientGoneError("the request was aborted")));
  req.on("error", () => counted.destroy(new ClientGoneError("the request failed")));
  req.pipe(counted);
  if (decode) decode.on("error", (e) => decodeErrors.add(e)); // first listener: tagged before any reader sees it
  const stream: Readable = decode ? counted.pipe(decode) : counted;
  if (decode) counted.on("error", (e) => decode.destroy(e));
  // The reader may answer (e.g. 401) before it reads the body, or wait on the database first:
  // an error of the unread body (bad gzip, a client hanging up) must not be an unhandled
  // 'error' event, which would end the process. Reading the stream still sees the error.
  stream.on("error", () => {});
  return { ok: true, stream };
}

/** The answer for an error the stream of `openIngestBody` raised, or null when the error is not the body's. */
export function bodyRefusal(error: unknown, req: IncomingMessage): BodyRefusal | null {
  if (error instanceof WireLimitError) return { ok: false, status: 413, reason: error.message };
  if (error instanceof ClientGoneError) return { ok: false, status: 400, reason: "the request body was cut off" };
  if (error instanceof Error && decodeErrors.has(error)) {
    return { ok: false, status: 400, reason: `invalid ${req.headers["content-encoding"]} body: ${error.message}` };
  }
  return null;
}

/** Lets go of a body whether or not it was read: the rest is drained, not buffered, so the client can read the answer. */
export function releaseIngestBody(req: IncomingMessage, stream: Readable): void {
  req.unpipe();
  req.resume();
  stream.destroy();
}

/**
 * Reads a whole request body (`/store/`, the tunnel), decompressing as it arrives: the wire
 * side is `openIngestBody`'s, the decompressed bytes are counted here against `maxDecoded`,
 * so neither a large upload nor a small compression bomb can grow past its limit in memory.
 */
export async function readIngestBody(req: IncomingMessage, maxWire: number, maxDecoded: number, limitName?: string): Promise<BodyResult> {
  const opened = openIngestBody(req, maxWire, limitName);
  if (!opened.ok) return opened;
  const chunks: Buffer[] = [];
  let decoded = 0;
  try {
    for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
      decoded += chunk.length;
      if (decoded > maxDecoded) return { ok: false, status: 413, reason: `decompressed body exceeds the limit of ${maxDecoded} bytes` };
      chunks.push(chunk);
    }
    return { ok: true, body: Buffer.concat(chunks) };
  } catch (error) {
    const refusal = bodyRefusal(error, req);
    if (refusal) return refusal;
    throw error;
  } finally {
    releaseIngestBody(req, opened.stream);
  }
}
