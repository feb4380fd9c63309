import type { IncomingMessage, ServerResponse } from "node:http";
import { envelopeUrl, parseDsn, type Dsn } from "../core/auth/dsn";
import { INGEST_LIMITS } from "../core/ingest/limits";
import type { MemoryBudget } from "../core/ingest/memory";
import { headerSafe, sendJson } from "./http";
import { readIngestBody } from "./ingest/body";
import { log } from "./log";

/** Same-origin path the browser SDK posts to when Telltale reports to an external DSN. */
export const TUNNEL_PATH = "/api/telltale/tunnel/";

export interface TunnelTarget {
  dsn: Dsn;
}

const sameTarget = (a: Dsn, b: Dsn) =>
  a.publicKey === b.publicKey &&
  a.host.toLowerCase() === b.host.toLowerCase() &&
  a.projectId === b.projectId &&
  a.path === b.path &&
  a.protocol === b.protocol;

/** Every refusal is logged (reason only: the body is the browser's) and answered as JSON. */
function refuse(res: ServerResponse, status: number, detail: string): void {
  log("info", "tunnel refused", { status, reason: detail.slice(0, 200) });
  sendJson(res, status, { detail });
}

/**
 * Forwards the browser's envelopes to the one configured DSN, never to a DSN the request
 * names (that would make Telltale an open relay). Like @sentry/core's handleTunnelRequest:
 * 400 without header or DSN, 403 for any other DSN, else the upstream answer.
 */
export async function handleTunnel(
  target: TunnelTarget | null,
  req: IncomingMessage,
  res: ServerResponse,
  memory?: MemoryBudget,
): Promise<void> {
  if (!target) {
    req.resume();
    return refuse(res, 404, "the tunnel is only used when TELLTALE_SELF_DSN names an external DSN");
  }
  if (req.method !== "POST") {
    req.resume();
    return refuse(res, 405, "POST an envelope here");
  }
  // The body is held against the ingest memory budget until it has been forwarded.
  const read = await readIngestBody(req, { maxWire: INGEST_LIMITS.maxRequestBytes, maxDecoded: INGEST_LIMITS.maxEnvelopeBytes, memory });
  if (!read.ok) return refuse(res, read.status, read.reason);
  try {
    await forward(target, read.body, res);
  } finally {
    read.release();
  }
}

/** Checks the envelope names the configured DSN, then posts it there and relays the answer. */
async function forward(target: TunnelTarget, body: Buffer, res: ServerResponse): Promise<void> {
  const nl = body.indexOf(0x0a);
  let dsn: Dsn | null = null;
  try {
    const header: unknown = JSON.parse(body.subarray(0, nl === -1 ? undefined : nl).toString("utf8"));
    const value = header !== null && typeof header === "object" ? (header as Record<string, unknown>).dsn : undefined;
    if (typeof value !== "string") return refuse(res, 400, "Invalid envelope: missing DSN");
    dsn = parseDsn(value);
  } catch {
    return refuse(res, 400, "Invalid envelope: missing header");
  }
  if (!dsn || !sameTarget(dsn, target.dsn)) return refuse(res, 403, "DSN not allowed");

  const url = `${envelopeUrl(target.dsn)}?sentry_version=7&sentry_key=${encodeURIComponent(target.dsn.publicKey)}`;
  try {
    const upstream = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-sentry-envelope" },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(15_000),
    });
    const headers: Record<string, string> = {};
    for (const name of ["retry-after", "x-sentry-rate-limits", "x-sentry-error", "content-type"]) {
      const v = upstream.headers.get(name);
      // The upstream's X-Sentry-Error may quote what the browser sent.
      if (v) headers[name] = name === "x-sentry-error" ? headerSafe(v) : v;
    }
    res.writeHead(upstream.status, headers);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  } catch (error) {
    log("warn", "tunnel upstream failed", { host: target.dsn.host, error: (error as Error).message });
    sendJson(res, 502, { detail: "the self-monitoring DSN could not be reached" });
  }
}
