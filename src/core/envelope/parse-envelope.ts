import { type EnvelopeHeader, type ItemHeader } from "./headers";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from "./limits";
import { EnvelopeParser, type EnvelopeItem } from "./parser";

export interface ParsedEnvelope {
  readonly header: EnvelopeHeader;
  readonly items: readonly EnvelopeItem[];
}

/**
 * Parses an envelope held whole in memory (tests, the digest step reading a stored body).
 * Streamed items are joined back up; payloads are views into `body`, not copies.
 * Throws `EnvelopeError`, the same as the streaming parser.
 */
export function parseEnvelope(body: Buffer, limits: EnvelopeLimits = DEFAULT_ENVELOPE_LIMITS): ParsedEnvelope {
  let header: EnvelopeHeader | undefined;
  const items: EnvelopeItem[] = [];
  let streaming: { header: ItemHeader; chunks: Buffer[] } | undefined;
  const parser = new EnvelopeParser(
    {
      onEnvelopeHeader: (h) => {
        header = h;
      },
      onItem: (item) => {
        items.push(item);
      },
      onItemStart: (h) => {
        streaming = { header: h, chunks: [] };
      },
      onItemChunk: (chunk) => {
        streaming?.chunks.push(chunk);
      },
      onItemEnd: ({ header: h, payloadBytes }) => {
        const chunks = streaming?.chunks ?? [];
        const payload = chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks, payloadBytes);
        items.push({ header: h, payload });
        streaming = undefined;
      },
    },
    limits,
  );
  parser.push(body);
  parser.end();
  if (header === undefined) throw new Error("parseEnvelope: the parser ended without a header");
  return { header, items };
}
