import { type EnvelopeHeader, type ItemHeader } from "./headers";
import { DEFAULT_ENVELOPE_LIMITS, type EnvelopeLimits } from "./limits";
import { EnvelopeParser, type EnvelopeItem } from "./parser";

/** What `readEnvelope` yields, in byte order; the same events as `EnvelopeVisitor`. */
export type EnvelopeEvent =
  | { readonly kind: "header"; readonly header: EnvelopeHeader }
  | { readonly kind: "item"; readonly item: EnvelopeItem }
  | { readonly kind: "item_start"; readonly header: ItemHeader }
  | { readonly kind: "item_chunk"; readonly chunk: Buffer }
  | { readonly kind: "item_end"; readonly header: ItemHeader; readonly payloadBytes: number };

/**
 * The parser as an async generator, for consumers that await per event (writing an
 * attachment to storage): the next source chunk is read only after the events of the
 * previous one were consumed, so backpressure reaches the decompression stream. Breaking
 * out of the loop stops reading the source. Throws `EnvelopeError`.
 *
 *   for await (const event of readEnvelope(req.pipe(createGunzip()), limits)) { ... }
 */
export async function* readEnvelope(
  source: AsyncIterable<Uint8Array>,
  limits: EnvelopeLimits = DEFAULT_ENVELOPE_LIMITS,
): AsyncGenerator<EnvelopeEvent, void, undefined> {
  let queue: EnvelopeEvent[] = [];
  const parser = new EnvelopeParser(
    {
      onEnvelopeHeader: (header) => queue.push({ kind: "header", header }),
      onItem: (item) => queue.push({ kind: "item", item }),
      onItemStart: (header) => queue.push({ kind: "item_start", header }),
      onItemChunk: (chunk) => queue.push({ kind: "item_chunk", chunk }),
      onItemEnd: ({ header, payloadBytes }) => queue.push({ kind: "item_end", header, payloadBytes }),
    },
    limits,
  );
  for await (const chunk of source) {
    parser.push(chunk);
    const ready = queue;
    queue = [];
    yield* ready;
  }
  parser.end();
  yield* queue;
}
