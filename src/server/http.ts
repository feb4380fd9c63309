import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorCode, TelltaleError } from "../core/errors";

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

/** The one place core error codes become HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  throttled: 429,
};

/** Sentry's API answers errors as `{"detail": "…"}`. */
export function sendError(res: ServerResponse, error: TelltaleError): void {
  const headers: Record<string, string> = {};
  if (error.details.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.details.retryAfterSeconds);
  sendJson(res, STATUS_OF[error.code], { detail: error.message }, headers);
}

/** Reads a whole body up to `limit` bytes; null when it is larger (the caller answers 413). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // a malformed cookie is ignored, not an error
    }
  }
  return out;
}
