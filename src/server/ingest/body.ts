import type { IncomingMessage } from "node:http";
import { PassThrough, Readable, type Transform } from "node:stream";
import { brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, gunzipSync, inflateSync } from "node:zlib";
import type { MemoryBudget } from "../../core/ingest/memory";
import { brotliDecoderMemory, HeldMemory, MemoryLimitError, ZLIB_DECODER_BYTES } from "./decoder-memory";
import { zstdDecoded, zstdDecodedWhole } from "./zstd-body";

export type BodyRefusal = { ok: false; status: 400 | 413 | 415 | 503; reason: string };
/** A body read whole, and `release` once done with it: until then its bytes count against the memory budget. */
export type BodyResult = { ok: true; body: Buffer; release(): void } | BodyRefusal;
/**
 * A body to read: its decompressed bytes, and `release` once done with it (read or not);
 * `whole` when they are already in memory in one buffer (the same bytes `stream` yields).
 */
export type OpenedBody = { ok: true; stream: AsyncIterable<Buffer>; whole?: Buffer; release(): void } | BodyRefusal;

export interface BodyLimits {
  /** Bytes on the wire (compressed); past them 413. */
  maxWire: number;
  /** The setting a 413 for the wire bytes names. */
  limitName?: string;
  /** What the reader will read of the decompressed bytes at most, when it knows (readIngestBody). */
  maxDecoded?: number;
  /**
   * The ingest memory budget: a streamed body's decoder holds its state in it, and
   * readIngestBody the bytes it keeps (decoder-memory.ts). Without it nothing is counted.
   */
  memory?: MemoryBudget;
}

const MEMORY_REFUSAL: BodyRefusal = { ok: false, status: 503, reason: new MemoryLimitError().message };

/**
 * Bodies that end within this many bytes on the wire are read whole and decoded in one
 * synchronous call: most events are a few KB, and a stream of PassThrough and zlib transforms
 * costs them more than their bytes do (per-request costs). No decoder of theirs
 * outlives that call, so none holds memory while the request waits.
 */
const WHOLE_BODY_BYTES = 64 * 1024;
/**
 * What one call may decode a whole body to. Past it (a compression ratio few real bodies
 * reach) the body is decoded as a stream after all, so that a small bomb never becomes a large
 * buffer at once; the reader's own cap applies either way.
 */
const WHOLE_DECODED_BYTES = 1024 * 1024;

type Coding = "identity" | "gzip" | "deflate" | "br" | "zstd";

/** A content-encoding's coding; identity for the empty and "UTF-8" values some SDKs send. */
function codingOf(encoding: string | undefined): Coding | "unsupported" {
  const value = (encoding ?? "").trim().toLowerCase();
  // sentry-ruby 5 sends an empty value, sentry-java 2.0 sends "UTF-8": both mean identity (docs/protocol.md#content-encoding).
  if (value === "" || value === "identity" || value === "utf-8") return "identity";
  if (value === "gzip" || value === "x-gzip") return "gzip";
  if (value === "deflate" || value === "br" || value === "zstd") return value;
  return "unsupported";
}

/**
 * A streaming decoder for a zlib coding, its errors tagged as the body's before any reader
 * sees them; null when the memory budget cannot hold its state (`first`: the body's first
 * bytes, whose header gives brotli's window).
 */
function decoderFor(coding: "gzip" | "deflate" | "br", first: Buffer, held: HeldMemory): Transform | null {
  if (!held.decoderAtLeast(coding === "br" ? brotliDecoderMemory(first) : ZLIB_DECODER_BYTES)) return null;
  const decode = coding === "gzip" ? createGunzip() : coding === "deflate" ? createInflate() : createBrotliDecompress();
  decode.on("error", (e) => decodeErrors.add(e));
  return decode;
}

/** Errors the body stream raises; `bodyRefusal` turns each into its answer. */
class WireLimitError extends Error {}
class ClientGoneError extends Error {}
/** Errors the content decoder raised: a corrupt gzip, deflate, br or zstd body (brotli's codes are not `Z_*`). */
const decodeErrors = new WeakSet<Error>();

/**
 * A zstd body's decoded bytes as a stream that decodes only as fast as it is read (zstd-body.ts),
 * its errors tagged as the body's. Errors of the body's own bytes (over the wire limit, a client
 * gone) pass through as they are.
 */
function zstdStream(body: AsyncIterable<Buffer>, held: HeldMemory): Readable {
  async function* tagged(): AsyncGenerator<Buffer> {
    try {
      yield* zstdDecoded(body, held);
    } catch (error) {
      if (error instanceof WireLimitError || error instanceof ClientGoneError || error instanceof MemoryLimitError) throw error;
      const tagged = error instanceof Error ? error : new Error(String(error));
      decodeErrors.add(tagged);
      throw tagged;
    }
  }
  return Readable.from(tagged(), { objectMode: false });
}

/** The first bytes of a body, up to `limit` (more when a chunk crosses it), and whether that was all. */
function readStart(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; bytes: number; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("aborted", onAborted);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > limit) {
        req.pause();
        cleanup();
        resolve({ chunks, bytes, ended: false });
      }
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, bytes, ended: true });
    };
    const onAborted = () => {
      cleanup();
      reject(new ClientGoneError("the request was aborted"));
    };
    const onError = () => {
      cleanup();
      reject(new ClientGoneError("the request failed"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("aborted", onAborted);
    req.on("error", onError);
  });
}

const once = (buffer: Buffer): AsyncIterable<Buffer> => ({
  async *[Symbol.asyncIterator]() {
    if (buffer.length > 0) yield buffer;
  },
});

/** A body whose bytes cannot be decoded: reading it raises the decoder's error, tagged as the body's. */
const failing = (error: unknown): AsyncIterable<Buffer> => {
  const tagged = error instanceof Error ? error : new Error(String(error));
  decodeErrors.add(tagged);
  return {
    // eslint-disable-next-line require-yield -- a body that fails as soon as it is read
    async *[Symbol.asyncIterator]() {
      throw tagged;
    },
  };
};

const tooLarge = (error: unknown) =>
  error instanceof RangeError && (error as RangeError & { code?: string }).code === "ERR_BUFFER_TOO_LARGE";

/**
 * The decompressed bytes of a body read whole: identity as it is; the others in one call up to
 * `cap`, past which `overCap` decides (a refusal, or null to stream-decode after all, the
 * decoder's state then held in `held`).
 */
function decodeWhole(raw: Buffer, coding: Coding, cap: number, overCap: () => BodyRefusal | null, held: HeldMemory): OpenedBody {
  const done = { ok: true as const, release: () => held.release() };
  if (coding === "identity") return { ...done, stream: once(raw), whole: raw };
  try {
    const decoded =
      coding === "zstd"
        ? zstdDecodedWhole(raw, cap)
        : coding === "br"
          ? brotliDecompressSync(raw, { maxOutputLength: cap })
          : coding === "deflate"
            ? inflateSync(raw, { maxOutputLength: cap })
            : gunzipSync(raw, { maxOutputLength: cap });
    if (decoded) return { ...done, stream: once(decoded), whole: decoded };
  } catch (error) {
    // Not what its content-encoding says: the reader finds out when it reads, as from a stream
    // (a request refused first, say for an unknown key, is answered for that, not for its body).
    if (!tooLarge(error)) return { ...done, stream: failing(error) };
  }
  const refusal = overCap();
  if (refusal) return refusal;
  let stream: Readable;
  if (coding === "zstd") stream = zstdStream(once(raw), held);
  else {
    const decode = decoderFor(coding, raw, held);
    if (!decode) return MEMORY_REFUSAL;
    stream = Readable.from([raw], { objectMode: false }).pipe(decode);
  }
  stream.on("error", () => {});
  return {
    ok: true,
    stream,
    release: () => {
      stream.destroy();
      held.release();
    },
  };
}

/**
 * The one place the wire side of an ingest body is checked: the content-encoding (415) and
 * a declared content-length over `maxWire` (413) before anything is read, then the bytes that
 * actually arrive, counted while streaming (a chunked body declares nothing). Returns the
 * decompressed bytes; they are capped by whoever reads them (the envelope parser, or
 * `readIngestBody`, which passes its cap as `maxDecoded` so that a body read whole is decoded
 * no further). A streamed body's decoder holds its state in `memory` until `release`: one the
 * budget cannot hold is refused 503.
 *
 * A body that ends within WHOLE_BODY_BYTES is read whole before this answers; a longer one is
 * streamed from where that read stopped.
 */
export async function openIngestBody(req: IncomingMessage, limits: BodyLimits): Promise<OpenedBody> {
  const { maxWire, maxDecoded } = limits;
  const setting = limits.limitName ? ` (${limits.limitName})` : "";
  const coding = codingOf(req.headers["content-encoding"]);
  if (coding === "unsupported") {
    req.resume();
    // RFC 9110 §15.5.16: 415 for a content coding the server does not understand.
    return { ok: false, status: 415, reason: `unsupported content-encoding '${req.headers["content-encoding"]}'` };
  }
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxWire) {
    req.resume();
    return { ok: false, status: 413, reason: `request body of ${declared} bytes exceeds the limit of ${maxWire} bytes${setting}` };
  }
  let start: Awaited<ReturnType<typeof readStart>>;
  try {
    start = await readStart(req, Math.min(WHOLE_BODY_BYTES, maxWire));
  } catch {
    req.resume();
    return { ok: false, status: 400, reason: "the request body was cut off" };
  }
  if (start.bytes > maxWire) {
    req.resume();
    return { ok: false, status: 413, reason: `request body exceeds the limit of ${maxWire} bytes${setting}` };
  }
  const held = new HeldMemory(limits.memory);
  if (start.ended) {
    const raw = start.chunks.length === 1 ? start.chunks[0]! : Buffer.concat(start.chunks, start.bytes);
    const cap = Math.min(maxDecoded ?? WHOLE_DECODED_BYTES, WHOLE_DECODED_BYTES);
    const overCap = (): BodyRefusal | null =>
      maxDecoded !== undefined && maxDecoded <= WHOLE_DECODED_BYTES
        ? { ok: false, status: 413, reason: `decompressed body exceeds the limit of ${maxDecoded} bytes` }
        : null;
    return decodeWhole(raw, coding, cap, overCap, held);
  }
  let decode: Transform | null = null;
  if (coding !== "identity" && coding !== "zstd") {
    decode = decoderFor(coding, start.chunks[0]!, held);
    if (!decode) {
      req.resume();
      return MEMORY_REFUSAL;
    }
  }
  let wire = start.bytes;
  const counted = new PassThrough();
  for (const chunk of start.chunks) counted.write(chunk);
  req.on("data", (chunk: Buffer) => {
    wire += chunk.length;
    if (wire > maxWire) counted.destroy(new WireLimitError(`request body exceeds the limit of ${maxWire} bytes${setting}`));
  });
  req.on("aborted", () => counted.destroy(new ClientGoneError("the request was aborted")));
  req.on("error", () => counted.destroy(new ClientGoneError("the request failed")));
  req.pipe(counted);
  let stream: Readable = counted;
  if (coding === "zstd") {
    // The decoder reads `counted` only when it is read itself: until then this listener keeps
    // an error of the unread body from ending the process, as the zlib decoders' pipe does.
    counted.on("error", () => {});
    stream = zstdStream(counted, held);
  } else if (decode) {
    const decoder = decode;
    counted.on("error", (e) => decoder.destroy(e));
    stream = counted.pipe(decoder);
  }
  // The reader may answer (e.g. 401) before it reads the rest, or wait on the database first:
  // an error of the unread body (bad gzip, a client hanging up) must not be an unhandled
  // 'error' event, which would end the process. Reading the stream still sees the error.
  stream.on("error", () => {});
  return {
    ok: true,
    stream,
    release: () => {
      releaseIngestBody(req, stream);
      // Ends the zstd decoder's read of `counted` too, which gives its context back.
      counted.destroy();
      held.release();
    },
  };
}

/** The answer for an error the stream of `openIngestBody` raised, or null when the error is not the body's. */
export function bodyRefusal(error: unknown, req: IncomingMessage): BodyRefusal | null {
  if (error instanceof WireLimitError) return { ok: false, status: 413, reason: error.message };
  if (error instanceof ClientGoneError) return { ok: false, status: 400, reason: "the request body was cut off" };
  if (error instanceof MemoryLimitError) return MEMORY_REFUSAL;
  if (error instanceof Error && decodeErrors.has(error)) {
    return { ok: false, status: 400, reason: `invalid ${req.headers["content-encoding"]} body: ${error.message}` };
  }
  return null;
}

/** Lets go of a body whether or not it was read: the rest is drained, not buffered, so the client can read the answer. */
function releaseIngestBody(req: IncomingMessage, stream: Readable): void {
  req.unpipe();
  req.resume();
  stream.destroy();
}

/**
 * Reads a whole request body (`/store/`, the tunnel), decompressing as it arrives: the wire
 * side is `openIngestBody`'s, the decompressed bytes are counted here against `maxDecoded`,
 * so neither a large upload nor a small compression bomb can grow past its limit in memory.
 * The bytes it keeps are held in `memory` until the caller's `release`.
 */
export async function readIngestBody(req: IncomingMessage, limits: BodyLimits & { maxDecoded: number }): Promise<BodyResult> {
  const { maxDecoded } = limits;
  const opened = await openIngestBody(req, limits);
  if (!opened.ok) return opened;
  const kept = new HeldMemory(limits.memory);
  const chunks: Buffer[] = [];
  let decoded = 0;
  let done = false;
  try {
    for await (const chunk of opened.stream) {
      decoded += chunk.length;
      if (decoded > maxDecoded) return { ok: false, status: 413, reason: `decompressed body exceeds the limit of ${maxDecoded} bytes` };
      if (!kept.add(chunk.length)) return MEMORY_REFUSAL;
      chunks.push(chunk);
    }
    done = true;
    return { ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, decoded), release: () => kept.release() };
  } catch (error) {
    const refusal = bodyRefusal(error, req);
    if (refusal) return refusal;
    throw error;
  } finally {
    opened.release();
    if (!done) kept.release();
  }
}
