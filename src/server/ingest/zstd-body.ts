import type { DCtx } from "zstd-napi/binding.js";
// zstd-napi's low-level binding: a CommonJS module that loads the native addon, so its exports
// are the addon's and Node's ESM loader only sees a default export.
import binding from "zstd-napi/binding.js";
import { type HeldMemory, MemoryLimitError, zstdFrameMemory } from "./decoder-memory";

const { DParameter, ResetDirective } = binding;

/**
 * The largest window a zstd body may need, as a power of two: 8 MiB, what zstd's own levels up
 * to 19 use on large inputs. A decoder keeps a window of this size in memory while it decodes,
 * so a frame asking for more (zstd allows 2 GiB) is refused rather than let one small request
 * take that much memory. (A brotli body's decoder may keep 16 MiB.)
 */
export const ZSTD_WINDOW_LOG_MAX = 23;
const WINDOW_MAX = 2 ** ZSTD_WINDOW_LOG_MAX;

/**
 * Decoding contexts kept between bodies: a context keeps the buffers it grew, so a busy ingest
 * allocates none; two of them hold at most 2 × 8 MiB while idle. Others are freed when collected.
 */
const IDLE_CONTEXTS = 2;
const idle: DCtx[] = [];
const OUT_BYTES = binding.dStreamOutSize();

function acquire(): DCtx {
  const reused = idle.pop();
  if (reused) return reused;
  const dctx = new binding.DCtx();
  dctx.setParameter(DParameter.windowLogMax, ZSTD_WINDOW_LOG_MAX);
  return dctx;
}

function release(dctx: DCtx): void {
  // Abandons a frame left unfinished (a body refused part way) and keeps the window limit.
  dctx.reset(ResetDirective.sessionOnly);
  if (idle.length < IDLE_CONTEXTS) idle.push(dctx);
}

/**
 * The decoded bytes of a zstd body (one or more frames), one output buffer at a time and only
 * as fast as they are read: a small body that decodes to gigabytes yields its first buffers and
 * stops when the reader stops at its cap (Node's zlib streams, which gzip, deflate and br use, do
 * the same). Before each frame is decoded, the window it asks for is held in `held`
 * (decoder-memory.ts); a frame the budget cannot hold throws MemoryLimitError. Throws on a
 * corrupt frame, a frame whose window is over ZSTD_WINDOW_LOG_MAX, an empty body and a body
 * that ends inside a frame.
 */
export async function* zstdDecoded(body: AsyncIterable<Buffer>, held?: HeldMemory): AsyncGenerator<Buffer> {
  const dctx = acquire();
  try {
    let inFrame = false;
    let empty = true;
    // The start of a frame whose header has not all arrived yet.
    let pending: Buffer | null = null;
    for await (const chunk of body) {
      if (chunk.length > 0) empty = false;
      let input: Buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = null;
      for (;;) {
        if (held && !inFrame && input.length > 0) {
          const needs = zstdFrameMemory(input, WINDOW_MAX);
          if (needs === null) {
            pending = input;
            break;
          }
          if (!held.decoderAtLeast(needs)) throw new MemoryLimitError();
        }
        const out = Buffer.allocUnsafe(OUT_BYTES);
        const [left, produced, consumed] = dctx.decompressStream(out, input);
        input = input.subarray(consumed);
        inFrame = left !== 0;
        if (produced > 0) yield out.subarray(0, produced);
        // Done with this chunk once it is consumed and the decoder has nothing more to flush.
        if (input.length === 0 && (produced < out.length || left === 0)) break;
      }
    }
    // As for an empty gzip body: zstd's format has at least one frame.
    if (empty) throw new Error("the body holds no zstd frame");
    // A frame header cut off by the end of the body is a frame cut off too.
    if (inFrame || pending) throw new Error("the body ends inside a zstd frame");
  } finally {
    release(dctx);
  }
}

/**
 * A zstd body read whole, decoded in one synchronous call up to `cap` bytes: the decoded bytes,
 * or null when they would pass `cap` (the caller then streams it, holding its window). The
 * context is back in the pool before this returns, so nothing of the decoder is held across a
 * wait. Throws as zstdDecoded does.
 */
export function zstdDecodedWhole(raw: Buffer, cap: number): Buffer | null {
  const dctx = acquire();
  try {
    const parts: Buffer[] = [];
    let bytes = 0;
    let input = raw;
    let left = 0;
    for (;;) {
      const out = Buffer.allocUnsafe(OUT_BYTES);
      const [hint, produced, consumed] = dctx.decompressStream(out, input);
      left = hint;
      input = input.subarray(consumed);
      bytes += produced;
      if (bytes > cap) return null;
      if (produced > 0) parts.push(out.subarray(0, produced));
      if (input.length === 0 && (produced < out.length || left === 0)) break;
    }
    if (raw.length === 0) throw new Error("the body holds no zstd frame");
    if (left !== 0) throw new Error("the body ends inside a zstd frame");
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
  } finally {
    release(dctx);
  }
}
