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

/** A parser whose visitor appends each event to `queue`. */
function queueingParser(queue: EnvelopeEvent[], limits: EnvelopeLimits): EnvelopeParser {
  return new EnvelopeParser(
    {
      onEnvelopeHeader: (header) => queue.push({ kind: "header", header }),
      onItem: (item) => queue.push({ kind: "item", item }),
      onItemStart: (header) => queue.push({ kind: "item_start", header }),
      onItemChunk: (chunk) => queue.push({ kind: "item_chunk", chunk }),
      onItemEnd: ({ header, payloadBytes }) => queue.push({ kind: "item_end", header, payloadBytes }),
    },
    limits,
  );
}

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
  const queue: EnvelopeEvent[] = [];
  const parser = queueingParser(queue, limits);
  for await (const chunk of source) {
    parser.push(chunk);
    yield* queue.splice(0);
  }
  parser.end();
  yield* queue;
}

/**
 * The events `readEnvelope` yields for a source of this one buffer (a request body read whole,
 * as most are), without the async machinery: the same events in the same order, and an error at
 * the same point — one that `push` raises before any event, one that `end` raises (a cut-off
 * last item) after them.
 */
export function* envelopeEvents(body: Buffer, limits: EnvelopeLimits = DEFAULT_ENVELOPE_LIMITS): Generator<EnvelopeEvent, void, undefined> {
  const queue: EnvelopeEvent[] = [];
  const parser = queueingParser(queue, limits);
  if (body.length > 0) parser.push(body);
  yield* queue.splice(0);
  parser.end();
  yield* queue;
}
