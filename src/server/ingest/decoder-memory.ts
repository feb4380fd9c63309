import type { MemoryBudget } from "../../core/ingest/memory";

/**
 * What a streamed body holds in memory besides its bytes: the state of its content decoder.
 * A zstd decoder keeps the window its frame header asks for (up to 8 MiB here) and a brotli
 * decoder up to the window its stream header asks for (up to 16 MiB), both from the first
 * bytes on: without counting them, a client could hold megabytes per connection with a few
 * bytes on the wire and a slow rest. So a streamed body's decoder reserves what it will hold
 * from the ingest memory budget (`TELLTALE_INGEST_MEMORY_BYTES`) before it decodes, and a
 * request the budget cannot hold is answered 503, as one whose items it cannot hold is.
 * Bodies read whole are decoded in one synchronous call (body.ts), so no decoder of theirs
 * outlives the call.
 */

/** A zlib inflate stream (gzip, deflate): a 32 KiB window, ~7 KiB of state, and Node's 16 KiB output chunk. */
export const ZLIB_DECODER_BYTES = 64 * 1024;

/** Brotli's decoder state beside its ring buffer: Huffman tables and Node's output chunk. */
const BROTLI_STATE_BYTES = 128 * 1024;

/** The largest block of a zstd frame (RFC 8878 §3.1.1.2.3). */
const ZSTD_BLOCK_MAX = 128 * 1024;
const ZSTD_MAGIC = 0xfd2fb528;
/** The longest frame header: magic, descriptor, window descriptor, a 4-byte dictionary id and an 8-byte content size. */
export const ZSTD_FRAME_HEADER_MAX = 18;

/**
 * The bytes a zstd decoder will hold for the frame that starts at `head[0]` (RFC 8878
 * §3.1.1.1): its window (the frame content size for a single-segment frame), up to
 * `windowMax`, past which the decoder refuses the frame before it allocates, plus its input
 * block and two output blocks. null while `head` is shorter than the frame's header; 0 for a
 * skippable frame (which the decoder skips without a window) and for bytes that are no frame
 * (which it refuses).
 */
export function zstdFrameMemory(head: Uint8Array, windowMax: number): number | null {
  if (head.length < 4) return null;
  const magic = (head[0]! | (head[1]! << 8) | (head[2]! << 16) | (head[3]! << 24)) >>> 0;
  if (magic !== ZSTD_MAGIC) return 0;
  if (head.length < 5) return null;
  const descriptor = head[4]!;
  const contentSizeFlag = descriptor >> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const dictionaryIdBytes = [0, 1, 2, 4][descriptor & 3]!;
  const contentSizeBytes = contentSizeFlag === 0 ? (singleSegment ? 1 : 0) : [0, 2, 4, 8][contentSizeFlag]!;
  const headerBytes = 5 + (singleSegment ? 0 : 1) + dictionaryIdBytes + contentSizeBytes;
  if (head.length < headerBytes) return null;
  let window: number;
  if (singleSegment) {
    let size = 0;
    const at = headerBytes - contentSizeBytes;
    // Little-endian; past 2^53 the exact value no longer matters, only that it is over windowMax.
    for (let i = contentSizeBytes - 1; i >= 0; i--) size = size * 256 + head[at + i]!;
    window = contentSizeBytes === 2 ? size + 256 : size;
  } else {
    const exponent = head[5]! >> 3;
    const mantissa = head[5]! & 7;
    const base = 2 ** (10 + exponent);
    window = base + (base / 8) * mantissa;
  }
  if (window > windowMax) return 0;
  return window + 3 * Math.min(window, ZSTD_BLOCK_MAX);
}

/**
 * The bytes a brotli decoder may hold for a stream that starts with `first`: its window,
 * read from the stream's first bits (WBITS, RFC 7932 §9.1), and its state. Brotli grows its
 * ring buffer toward the window as a meta-block header asks for it, before any output, so
 * the whole window is reserved. An empty stream start or the large-window extension (which
 * Node's decoder refuses) counts as the largest standard window.
 */
export function brotliDecoderMemory(first: Uint8Array): number {
  const b = first[0];
  let windowBits = 24;
  if (b !== undefined) {
    if ((b & 1) === 0) windowBits = 16;
    else if (((b >> 1) & 7) !== 0) windowBits = 17 + ((b >> 1) & 7);
    else {
      const m = (b >> 4) & 7;
      windowBits = m === 0 ? 17 : m === 1 ? 24 : 8 + m;
    }
  }
  return 2 ** windowBits + BROTLI_STATE_BYTES;
}

/** A body refused because the ingest memory budget cannot hold its decoder or its bytes: answered 503. */
export class MemoryLimitError extends Error {
  constructor() {
    super("the server is at its ingest memory limit; retry later");
  }
}

/**
 * What one body holds against the ingest memory budget: its decoder's state, which only
 * grows (a zstd context keeps its largest window), and the decoded bytes a whole-body reader
 * keeps. Without a budget (tests of the decoding alone) it holds nothing and always succeeds.
 */
export class HeldMemory {
  private decoder = 0;
  private bytes = 0;

  constructor(private readonly budget: MemoryBudget | undefined) {}

  /** Holds at least `bytes` for the decoder; false when the budget cannot, which holds nothing more. */
  decoderAtLeast(bytes: number): boolean {
    if (bytes <= this.decoder || !this.budget) return true;
    if (!this.budget.tryReserve(bytes - this.decoder)) return false;
    this.decoder = bytes;
    return true;
  }

  /** Holds `bytes` more of the body itself; false when the budget cannot. */
  add(bytes: number): boolean {
    if (!this.budget) return true;
    if (!this.budget.tryReserve(bytes)) return false;
    this.bytes += bytes;
    return true;
  }

  /** Gives back everything held; later calls give back nothing. */
  release(): void {
    this.budget?.release(this.decoder + this.bytes);
    this.decoder = 0;
    this.bytes = 0;
  }
}
