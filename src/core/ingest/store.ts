import { randomUUID } from "node:crypto";
import { inflateSync } from "node:zlib";
import { normalizeEventId } from "../envelope/index";
import { acceptEnvelope, type AcceptResult, type EnvelopeRequest, type IngestRuntime } from "./accept";

/**
 * The legacy `/store/` body: event JSON, or (old SDKs) base64 of it, possibly zlib-deflated
 * (docs/protocol.md#endpoints). Returns the JSON text's bytes, or null when it is none of these.
 */
export function decodeStoreBody(body: Buffer, maxBytes: number): Buffer | null {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] === 0x7b) return body;
  const decoded = Buffer.from(body.toString("latin1").trim(), "base64");
  if (decoded.length === 0) return null;
  if (decoded[0] === 0x7b) return decoded;
  try {
    const inflated = inflateSync(decoded, { maxOutputLength: maxBytes });
    return inflated[0] === 0x7b ? inflated : null;
  } catch {
    return null;
  }
}

/**
 * `/store/` carries one event (or a transaction); it is accepted as the one-item envelope it
 * stands for, so both endpoints share quotas, outcomes and the queue.
 */
export async function acceptStore(
  rt: IngestRuntime,
  req: Omit<EnvelopeRequest, "body"> & { body: Buffer; maxBytes: number },
): Promise<AcceptResult> {
  const json = decodeStoreBody(req.body, req.maxBytes);
  if (!json) return { status: 400, reason: "invalid event: the body must be a JSON object (or base64 / zlib-compressed base64 of one)" };
  const event = parseJson(json.toString("utf8"));
  if (event === undefined) return { status: 400, reason: "invalid event: the body is not valid JSON" };
  if (event === null || typeof event !== "object" || Array.isArray(event))
    return { status: 400, reason: "invalid event: the body must be a JSON object" };
  const fields = event as Record<string, unknown>;
  // Sentry's /store/ answers the event's id whatever the client sent: one without (or with an
  // unreadable) event_id gets a fresh id in the envelope header, which the digest takes for it.
  const eventId = (typeof fields.event_id === "string" ? normalizeEventId(fields.event_id) : undefined) ?? randomUUID().replaceAll("-", "");
  const type = fields.type === "transaction" ? "transaction" : "event";
  const header = JSON.stringify({ event_id: eventId });
  const envelope = Buffer.concat([Buffer.from(`${header}\n${JSON.stringify({ type, length: json.length })}\n`), json]);
  return acceptEnvelope(rt, { ...req, body: oneChunk(envelope), whole: envelope });
}

async function* oneChunk(buffer: Buffer): AsyncGenerator<Buffer> {
  yield buffer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Old sentry-python sent NaN and Infinity, which JSON cannot hold (docs/protocol.md#endpoints);
    // only when the plain parse fails are they read as null.
    try {
      return JSON.parse(text.replace(/(?<=[:,[]\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, "null"));
    } catch {
      return undefined;
    }
  }
}
