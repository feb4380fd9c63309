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
 * One body's frames through one pooled context, chunk by chunk: the decoding that
 * zstdDecoded (a stream) and zstdDecodedWhole (one call) share. Before each frame is decoded,
 * the window it asks for is held in `held` (decoder-memory.ts); a frame the budget cannot
 * hold throws MemoryLimitError.
 */
class FrameReader {
  private readonly dctx = acquire();
  private inFrame = false;
  private empty = true;
  /** The start of a frame whose header has not all arrived yet. */
  private pending: Buffer | null = null;

  constructor(private readonly held?: HeldMemory) {}

  /** The decoded bytes of `chunk`, one output buffer at a time, only as fast as they are taken. */
  *push(chunk: Buffer): Generator<Buffer> {
    if (chunk.length > 0) this.empty = false;
    let input: Buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    for (;;) {
      if (this.held && !this.inFrame && input.length > 0) {
        const needs = zstdFrameMemory(input, WINDOW_MAX);
        if (needs === null) {
          this.pending = input;
          return;
        }
        if (!this.held.decoderAtLeast(needs)) throw new MemoryLimitError();
      }
      const out = Buffer.allocUnsafe(OUT_BYTES);
      const [left, produced, consumed] = this.dctx.decompressStream(out, input);
      input = input.subarray(consumed);
      this.inFrame = left !== 0;
      if (produced > 0) yield out.subarray(0, produced);
      // Done with this chunk once it is consumed and the decoder has nothing more to flush.
      if (input.length === 0 && (produced < out.length || left === 0)) return;
    }
  }

  /** After the last chunk: throws for an empty body and for one that ends inside a frame. */
  finish(): void {
    // As for an empty gzip body: zstd's format has at least one frame.
    if (this.empty) throw new Error("the body holds no zstd frame");
    // A frame header cut off by the end of the body is a frame cut off too.
    if (this.inFrame || this.pending) throw new Error("the body ends inside a zstd frame");
  }

  /** Gives the context back to the pool, finished or not. */
  close(): void {
    release(this.dctx);
  }
}

/**
 * The decoded bytes of a zstd body (one or more frames), one output buffer at a time and only
 * as fast as they are read: a small body that decodes to gigabytes yields its first buffers and
 * stops when the reader stops at its cap (Node's zlib streams, which gzip, deflate and br use, do
 * the same). Each frame's window is held in `held` first (FrameReader). Throws on a corrupt
 * frame, a frame whose window is over ZSTD_WINDOW_LOG_MAX, an empty body, a body that ends
 * inside a frame, and a window the budget cannot hold.
 */
export async function* zstdDecoded(body: AsyncIterable<Buffer>, held?: HeldMemory): AsyncGenerator<Buffer> {
  const reader = new FrameReader(held);
  try {
    for await (const chunk of body) yield* reader.push(chunk);
    reader.finish();
  } finally {
    reader.close();
  }
}

/**
 * A zstd body read whole, decoded in one synchronous call up to `cap` bytes: the decoded bytes,
 * or null when they would pass `cap` (the caller then streams it, holding its window). The
 * context is back in the pool before this returns, so nothing of the decoder is held across a
 * wait. Throws as zstdDecoded does.
 */
export function zstdDecodedWhole(raw: Buffer, cap: number): Buffer | null {
  const reader = new FrameReader();
  try {
    const parts: Buffer[] = [];
    let bytes = 0;
    for (const out of reader.push(raw)) {
      bytes += out.length;
      if (bytes > cap) return null;
      parts.push(out);
    }
    reader.finish();
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
  } finally {
    reader.close();
  }
}
