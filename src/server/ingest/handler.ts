import type { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, type Readable } from "node:stream";
import { acceptEnvelope, type AcceptResult, type IngestRuntime } from "../../core/ingest/accept";
import { acceptStore } from "../../core/ingest/store";
import { formatRateLimits, retryAfterOf } from "../../core/ratelimit/quota";
import { headerSafe, sendJson } from "../http";
import { log } from "../log";
import { decoderFor, readIngestBody } from "./body";
import { answerPreflight, INGEST_CORS } from "./cors";

export interface IngestRoute {
  projectId: number;
  endpoint: "envelope" | "store";
}

const firstHeader = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

class WireLimitError extends Error {}
class ClientGoneError extends Error {}

/** Errors the content decoder raised: a corrupt gzip, deflate or br body (brotli's codes are not `Z_*`). */
const decodeErrors = new WeakSet<Error>();

/** An answer of the handler's own, beside what the core answers. */
type Answer = AcceptResult | { status: 405 | 415; reason: string };

/**
 * The request body, decompressed as it streams, with the bytes on the wire counted
 * against `maxWire`. The envelope parser caps the decompressed bytes.
 */
function bodyStream(req: IncomingMessage, maxWire: number): Readable | "unsupported" {
  const decode = decoderFor(req.headers["content-encoding"]);
  if (decode === "unsupported") return decode;
  let wire = 0;
  const counted = new PassThrough();
  req.on("data", (chunk: Buffer) => {
    wire += chunk.length;
    if (wire > maxWire) counted.destroy(new WireLimitError(`request body exceeds ${maxWire} bytes (TELLTALE_MAX_REQUEST_BYTES)`));
  });
  req.on("aborted", () => counted.destroy(new ClientGoneError("the request was aborted")));
  req.pipe(counted);
  if (decode) decode.on("error", (e) => decodeErrors.add(e)); // first listener: tagged before the parser sees it
  const out: Readable = decode ? counted.pipe(decode) : counted;
  if (decode) counted.on("error", (e) => decode.destroy(e));
  // The core may answer (e.g. 401) before it reads the body, or wait on the database first:
  // an error of the unread body (bad gzip, a client hanging up) must not be an unhandled
  // 'error' event, which would end the process. Reading the stream still sees the error.
  out.on("error", () => {});
  return out;
}

function answer(res: ServerResponse, result: Answer, route: IngestRoute): void {
  const headers: Record<string, string> = { ...INGEST_CORS };
  if ("rateLimits" in result && result.rateLimits.length > 0) headers["x-sentry-rate-limits"] = formatRateLimits(result.rateLimits);
  if (result.status === 200) return sendJson(res, 200, result.id ? { id: result.id } : {}, headers);
  if (result.status === 429 && "rateLimits" in result) headers["retry-after"] = String(retryAfterOf(result.rateLimits));
  if (result.status === 503) headers["retry-after"] = "5";
  headers["x-sentry-error"] = headerSafe(result.reason);
  const level = result.status >= 500 ? "warn" : "info";
  log(level, "ingest rejected", { status: result.status, reason: result.reason.slice(0, 500), project: route.projectId });
  sendJson(res, result.status, { detail: result.reason }, headers);
}

/** `POST /api/{project_id}/envelope/` and `/store/`: transport in, core call, Relay-like answer out. */
export async function handleIngest(rt: IngestRuntime, req: IncomingMessage, res: ServerResponse, route: IngestRoute): Promise<void> {
  if (req.method === "OPTIONS") return answerPreflight(res);
  if (req.method !== "POST") {
    req.resume();
    const reason = `method ${req.method} not allowed; SDKs POST here`;
    return sendJson(res, 405, { detail: reason }, { ...INGEST_CORS, allow: "POST, OPTIONS", "x-sentry-error": headerSafe(reason) });
  }
  const maxWire = rt.maxRequestBytes;
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxWire) {
    req.resume();
    return answer(res, { status: 413, reason: `request body of ${declared} bytes exceeds ${maxWire} (TELLTALE_MAX_REQUEST_BYTES)` }, route);
  }
  const url = new URL(req.url ?? "/", "http://localhost");
  const auth = { xSentryAuth: firstHeader(req, "x-sentry-auth"), authorization: req.headers.authorization, query: url.searchParams };
  const receivedAt = rt.ctx.now();

  let result: Answer;
  if (route.endpoint === "store") {
    const read = await readIngestBody(req, maxWire, rt.limits.maxEventBytes);
    if (!read.ok) return answer(res, read, route);
    result = await acceptStore(rt, { projectId: route.projectId, auth, body: read.body, receivedAt, maxBytes: rt.limits.maxEventBytes });
  } else {
    const body = bodyStream(req, maxWire);
    if (body === "unsupported") {
      req.resume();
      // RFC 9110 §15.5.16: 415 for a content coding the server does not understand.
      return answer(res, { status: 415, reason: `unsupported content-encoding '${req.headers["content-encoding"]}'` }, route);
    }
    try {
      result = await acceptEnvelope(rt, { projectId: route.projectId, auth, body, receivedAt });
    } catch (error) {
      if (error instanceof WireLimitError) result = { status: 413, reason: error.message };
      else if (error instanceof ClientGoneError) result = { status: 400, reason: "the request body was cut off" };
      else if (error instanceof Error && decodeErrors.has(error)) {
        result = { status: 400, reason: `invalid ${req.headers["content-encoding"]} body: ${error.message}` };
      } else throw error;
    } finally {
      // Whatever the core did not read is drained, not buffered, so the client sees the answer.
      req.unpipe();
      req.resume();
      body.destroy();
    }
  }
  answer(res, result, route);
}
