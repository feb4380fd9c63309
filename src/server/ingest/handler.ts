import type { IncomingMessage, ServerResponse } from "node:http";
import { acceptEnvelope, type AcceptResult, type IngestRuntime } from "../../core/ingest/accept";
import { acceptStore } from "../../core/ingest/store";
import { STORAGE_FULL_REASON, STORAGE_FULL_RETRY_AFTER_SECONDS } from "../../core/ingest/storage-full";
import { formatRateLimits, retryAfterOf } from "../../core/ratelimit/quota";
import { isStorageFull } from "../../db/storage-full";
import { headerSafe, sendJson } from "../http";
import { log } from "../log";
import { bodyRefusal, openIngestBody, readIngestBody } from "./body";
import { answerPreflight, INGEST_CORS } from "./cors";

/** The setting a 413 for the bytes on the wire names. */
const MAX_REQUEST_SETTING = "TELLTALE_MAX_REQUEST_BYTES";

export interface IngestRoute {
  projectId: number;
  endpoint: "envelope" | "store";
}

const firstHeader = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The request's query, as `new URL(url).searchParams` would give it: only the part after `?`
 * is parsed (most SDKs send none; browsers send `sentry_key` there), not the whole URL.
 */
function queryOf(url: string | undefined): URLSearchParams {
  const start = url?.indexOf("?") ?? -1;
  if (url === undefined || start < 0) return new URLSearchParams();
  const hash = url.indexOf("#", start);
  return new URLSearchParams(url.slice(start + 1, hash < 0 ? undefined : hash));
}

/** An answer of the handler's own, beside what the core answers. */
type Answer = AcceptResult | { status: 405 | 415 | 503; reason: string; storageFull?: boolean };

function answer(res: ServerResponse, result: Answer, route: IngestRoute): void {
  const headers: Record<string, string> = { ...INGEST_CORS };
  if ("rateLimits" in result && result.rateLimits.length > 0) headers["x-sentry-rate-limits"] = formatRateLimits(result.rateLimits);
  if (result.status === 200) return sendJson(res, 200, result.id ? { id: result.id } : {}, headers);
  if (result.status === 429 && "rateLimits" in result) headers["retry-after"] = String(retryAfterOf(result.rateLimits));
  const storageFull = "storageFull" in result && result.storageFull === true;
  if (result.status === 503) headers["retry-after"] = storageFull ? String(STORAGE_FULL_RETRY_AFTER_SECONDS) : "5";
  headers["x-sentry-error"] = headerSafe(result.reason);
  // A full disk refuses every request: the watch logs it once per interval instead (src/core/ingest/storage-full.ts).
  if (storageFull) return sendJson(res, result.status, { detail: result.reason }, headers);
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
  let result: Answer;
  try {
    result = await accept(rt, req, route);
  } catch (error) {
    if (!isStorageFull(error)) throw error;
    // Nothing of this request was acknowledged: its attachments are discarded, its row not queued.
    rt.storage.full(rt.ctx.now());
    result = { status: 503, reason: STORAGE_FULL_REASON, storageFull: true };
  }
  if (result.status === 200) rt.storage.writable(rt.ctx.now());
  answer(res, result, route);
}

async function accept(rt: IngestRuntime, req: IncomingMessage, route: IngestRoute): Promise<Answer> {
  const auth = { xSentryAuth: firstHeader(req, "x-sentry-auth"), authorization: req.headers.authorization, query: queryOf(req.url) };
  const receivedAt = rt.ctx.now();

  let result: Answer;
  if (route.endpoint === "store") {
    const read = await readIngestBody(req, {
      maxWire: rt.maxRequestBytes,
      maxDecoded: rt.limits.maxEventBytes,
      limitName: MAX_REQUEST_SETTING,
      memory: rt.memory,
    });
    if (!read.ok) return read;
    try {
      result = await acceptStore(rt, { projectId: route.projectId, auth, body: read.body, receivedAt, maxBytes: rt.limits.maxEventBytes });
    } finally {
      read.release();
    }
  } else {
    // The envelope parser caps the decompressed bytes as it reads them.
    const opened = await openIngestBody(req, { maxWire: rt.maxRequestBytes, limitName: MAX_REQUEST_SETTING, memory: rt.memory });
    if (!opened.ok) return opened;
    try {
      result = await acceptEnvelope(rt, { projectId: route.projectId, auth, body: opened.stream, whole: opened.whole, receivedAt });
    } catch (error) {
      const refusal = bodyRefusal(error, req);
      if (!refusal) throw error;
      result = refusal;
    } finally {
      opened.release();
    }
  }
  return result;
}
