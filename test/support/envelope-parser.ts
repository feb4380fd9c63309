/** Helpers shared by the envelope tests (not used by production code). */
import { readdirSync, readFileSync } from "node:fs";
import { isEnvelopeError } from "../../src/core/envelope/errors";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from "../../src/core/envelope/limits";
import { EnvelopeParser } from "../../src/core/envelope/parser";

/** Real SDK envelopes, byte for byte (test/fixtures/parser-envelopes/README.md). */
const FIXTURES = new URL("../fixtures/parser-envelopes/", import.meta.url);

export function fixture(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

/** The names of all the fixture envelopes. */
export function fixtureNames(): string[] {
  return readdirSync(FIXTURES).filter((f) => f.endsWith(".envelope"));
}

export function limitsWith(overrides: Partial<EnvelopeLimits>): EnvelopeLimits {
  return { ...DEFAULT_ENVELOPE_LIMITS, ...overrides };
}

/** One item written the way SDKs do: header line, `\n`, payload; `length` added unless `implicit`. */
export function item(header: Record<string, unknown>, payload: string | Buffer, implicit = false): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  const h = implicit ? header : { ...header, length: body.length };
  return Buffer.concat([Buffer.from(JSON.stringify(h) + "\n"), body]);
}

/** An envelope joined like the JS serializer: header, then `\n` + item for each item, no trailing newline. */
export function envelope(header: Record<string, unknown>, ...items: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const i of items) parts.push(Buffer.from("\n"), i);
  return Buffer.concat(parts);
}

export interface SeenItem {
  type: string;
  streamed: boolean;
  payload: string;
  header: Record<string, unknown>;
}

/** Everything a parse produced, in a shape `toEqual` can compare; errors included. */
export type Outcome =
  | { ok: true; header: Record<string, unknown>; items: SeenItem[] }
  | { ok: false; reason: string; limit: string | undefined; offset: number; message: string };

/** Parses `chunks` pushed one by one; payloads are compared as latin1 so any byte survives. */
export function parseChunks(chunks: readonly Buffer[], limits: EnvelopeLimits = DEFAULT_ENVELOPE_LIMITS): Outcome {
  let header: Record<string, unknown> = {};
  const items: SeenItem[] = [];
  let open: { header: Record<string, unknown>; type: string; chunks: Buffer[] } | undefined;
  const parser = new EnvelopeParser(
    {
      onEnvelopeHeader: (h) => {
        header = { ...h.raw };
      },
      onItem: ({ header: h, payload }) => {
        items.push({ type: h.type, streamed: false, payload: payload.toString("latin1"), header: { ...h.raw } });
      },
      onItemStart: (h) => {
        open = { header: { ...h.raw }, type: h.type, chunks: [] };
      },
      onItemChunk: (c) => {
        if (c.length === 0) throw new Error("empty chunk delivered");
        open?.chunks.push(Buffer.from(c));
      },
      onItemEnd: ({ payloadBytes }) => {
        if (!open) throw new Error("item end without start");
        const payload = Buffer.concat(open.chunks);
        if (payload.length !== payloadBytes) throw new Error("payloadBytes mismatch");
        items.push({ type: open.type, streamed: true, payload: payload.toString("latin1"), header: open.header });
        open = undefined;
      },
    },
    limits,
  );
  try {
    for (const c of chunks) parser.push(c);
    parser.end();
  } catch (e) {
    if (!isEnvelopeError(e)) throw e;
    return { ok: false, reason: e.reason, limit: e.limit, offset: e.offset, message: e.message };
  }
  return { ok: true, header, items };
}

export function parseWhole(input: string | Buffer, limits?: EnvelopeLimits): Outcome {
  return parseChunks([typeof input === "string" ? Buffer.from(input) : input], limits);
}

/** Splits `buf` into pieces of `size` bytes. */
export function split(buf: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, i + size));
  return out;
}

/** A small deterministic PRNG (mulberry32) so fuzz failures reproduce. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
