import type { JsonObject } from "../envelope/index";

export interface KeptItem {
  header: JsonObject;
  payload: Buffer;
}

/**
 * Writes an envelope back out: the header line, then each item as a header carrying its
 * exact `length` and the payload. Every payload is length-prefixed, so payloads with
 * newlines round-trip and the digest step parses what was stored without ambiguity.
 */
export function serializeEnvelope(header: JsonObject, items: readonly KeptItem[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    parts.push(Buffer.from(`\n${JSON.stringify({ ...item.header, length: item.payload.length })}\n`), item.payload);
  }
  return Buffer.concat(parts);
}
