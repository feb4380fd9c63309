import type { JsonObject } from "../envelope/index";

export interface KeptItem {
  header: JsonObject;
  payload: Buffer;
}

/**
 * Writes an envelope back out: the header line, then each item as a header carrying its
 * exact `length` and the payload, so payloads with newlines round-trip. Used when some items
 * were dropped (quotas) or streamed elsewhere (attachments), or the body was streamed; a body
 * read whole whose items were all kept is queued as received (accept.ts), and the digest reads
 * it with the same parser and limits that accepted it.
 */
export function serializeEnvelope(header: JsonObject, items: readonly KeptItem[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    parts.push(Buffer.from(`\n${JSON.stringify({ ...item.header, length: item.payload.length })}\n`), item.payload);
  }
  return Buffer.concat(parts);
}
