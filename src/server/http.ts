import type { IncomingMessage, ServerResponse } from "node:http";
import type { ErrorCode, TelltaleError } from "../core/errors";

/** Answers JSON; a response already answered (a slow client cut off first) is left as it is. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

/**
 * Text for a response header that may quote a client: X-Sentry-Error carries a reason for
 * SDKs and proxies to log, and a reason can quote the client (an item type, an encoding),
 * while a header may only hold Latin-1 without control characters
 * (https://www.rfc-editor.org/rfc/rfc9110#section-5.5); node throws on anything else. The
 * header gets printable ASCII, at most 200 characters; the JSON body keeps the reason whole.
 */
export function headerSafe(reason: string): string {
  const ascii = reason.replace(/[^\x20-\x7e]/g, "?");
  return ascii.length > 200 ? `${ascii.slice(0, 197)}...` : ascii;
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
