import type { IncomingMessage, ServerResponse } from "node:http";
import type { Ctx } from "../../core/context";
import { acceptRequest } from "../../core/ingest/accept";
import { INGEST_LIMITS } from "../../core/ingest/limits";
import { sendJson } from "../http";
import { log } from "../log";
import { readIngestBody } from "./body";
import { answerPreflight, INGEST_CORS } from "./cors";

export interface IngestRoute {
  projectId: number;
  endpoint: "envelope" | "store";
}

const firstHeader = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function reject(res: ServerResponse, status: number, reason: string, route: IngestRoute): void {
  log("info", "ingest rejected", { status, reason, project: route.projectId });
  sendJson(res, status, { detail: reason }, { ...INGEST_CORS, "x-sentry-error": reason });
}

/** `POST /api/{project_id}/envelope/` and `/store/`: parse the transport, call the core, answer like Relay. */
export async function handleIngest(ctx: Ctx, req: IncomingMessage, res: ServerResponse, route: IngestRoute): Promise<void> {
  if (req.method === "OPTIONS") return answerPreflight(res);
  if (req.method !== "POST") {
    req.resume();
    return reject(res, 405, `method ${req.method} not allowed; SDKs POST here`, route);
  }
  const limit = route.endpoint === "store" ? INGEST_LIMITS.maxStoreBytes : INGEST_LIMITS.maxEnvelopeBytes;
  const read = await readIngestBody(req, INGEST_LIMITS.maxRequestBytes, limit);
  if (!read.ok) return reject(res, read.status, read.reason, route);

  const url = new URL(req.url ?? "/", "http://localhost");
  const result = await acceptRequest({
    ctx,
    input: {
      projectId: route.projectId,
      endpoint: route.endpoint,
      auth: { xSentryAuth: firstHeader(req, "x-sentry-auth"), authorization: req.headers.authorization, query: url.searchParams },
      body: read.body,
    },
  });
  if (!result.ok) return reject(res, result.status, result.reason, route);
  sendJson(res, 200, result.id ? { id: result.id } : {}, INGEST_CORS);
}
