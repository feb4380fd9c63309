import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { decodeIdentifier, isStorableText } from "../core/identifiers";
import { resolveClientIp, type TrustProxy } from "../core/net/client-ip";
import { CLIENT_IP_HEADER } from "./headers";
import { log } from "./log";
import { contentSecurityPolicy, newNonce, NOSNIFF, uiHeaders, withHeaders } from "./security-headers";

export interface ProxyOptions {
  trustProxy: TrustProxy;
  /** The public URL is https: HSTS and upgrade-insecure-requests. */
  https: boolean;
}

/**
 * Headers for one hop only (RFC 9110 section 7.6.1): `Connection` and the headers it names,
 * and the standard ones. Forwarding a client's `Connection: close` made the worker close the
 * socket once it answered, while a body it had not read was still being written: the answer
 * was lost as a 502 though the request had been handled.
 */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "proxy-authorization"];

function withoutHopByHop(incoming: IncomingHttpHeaders): IncomingHttpHeaders {
  const headers = { ...incoming };
  const named = String(incoming.connection ?? "")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n && n !== "host" && n !== "content-length" && n !== "transfer-encoding");
  for (const name of [...HOP_BY_HOP, ...named]) delete headers[name];
  return headers;
}

function rawWithoutHopByHop(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    if (!HOP_BY_HOP.includes(name.toLowerCase())) kept.push(name, raw[i + 1] ?? "");
  }
  return kept;
}

/**
 * Whether a page URL's path segments and query values can all name something stored: a NUL or
 * a bad escape in an organization, issue or release segment would reach PostgreSQL as a 500.
 */
function isPossiblePageUrl(url: string): boolean {
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!path.split("/").every((segment) => decodeIdentifier(segment) !== null)) return false;
  if (q < 0) return true;
  return [...new URLSearchParams(url.slice(q + 1))].every(([k, v]) => isStorableText(k) && isStorableText(v));
}

/**
 * A change (a server action is a POST to a page) whose Origin is not the host it was sent to,
 * as Next.js compares them (Origin's host against X-Forwarded-Host). No Origin is left to Next.js.
 */
function crossOriginChange(req: IncomingMessage, host: string): boolean {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() !== host.split(",")[0]?.trim().toLowerCase();
  } catch {
    return true; // "null" (a sandboxed frame, a redirect across origins) or garbage
  }
}

/**
 * Hands a request to the Next.js worker over a unix socket, streaming both bodies.
 * The client address is resolved once, here, and travels in `x-telltale-client-ip` (and
 * as the only `X-Forwarded-For` entry) with the scheme in X-Forwarded-Proto; whatever the
 * client sent in those headers is replaced. The worker believes them because only this
 * front can reach it (it listens on a private socket, not on the network).
 */
export function createProxy(socketPath: string, { trustProxy, https }: ProxyOptions) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const common = uiHeaders(https);
  return function proxy(req: IncomingMessage, res: ServerResponse): void {
    const headers = withoutHopByHop(req.headers);
    // Pages get a policy with a fresh nonce; the request carries the same policy so Next.js
    // finds the nonce there (a client-sent one is replaced). The JSON web API is never a page.
    const api = (req.url ?? "/").startsWith("/api/");
    const csp = api ? null : contentSecurityPolicy(newNonce(), https);
    delete headers["content-security-policy-report-only"];
    if (csp) headers["content-security-policy"] = csp;
    else delete headers["content-security-policy"];
    const ours = csp ? { ...common, "content-security-policy": csp } : common;
    const forwarded = headers["x-forwarded-for"];
    const client = resolveClientIp(req.socket.remoteAddress ?? "", Array.isArray(forwarded) ? forwarded.join(",") : forwarded, trustProxy);
    headers[CLIENT_IP_HEADER] = client.ip;
    headers["x-forwarded-for"] = client.ip;
    if (!client.viaTrustedProxy || !headers["x-forwarded-proto"]) headers["x-forwarded-proto"] = "http";
    if (!client.viaTrustedProxy || !headers["x-forwarded-host"]) headers["x-forwarded-host"] = req.headers.host ?? "";
    if (!api && !isPossiblePageUrl(req.url ?? "/")) {
      // The pages' share of the identifier check the web API router makes (src/core/identifiers.ts).
      req.resume();
      res.writeHead(404, { "content-type": "text/plain", ...ours });
      return void res.end("Not found.");
    }
    if (!api && crossOriginChange(req, String(headers["x-forwarded-host"]))) {
      // Next.js refuses a server action from another origin by throwing (a 500); the answer is a refusal.
      req.resume();
      res.writeHead(403, { "content-type": "text/plain", ...ours, connection: "close" });
      return void res.end("Cross-origin request refused.");
    }
    let answered = false;
    const upstream = request({ agent, socketPath, method: req.method, path: req.url, headers }, (up) => {
      answered = true;
      // Already answered: the client was cut off as too slow (./client-timeouts.ts).
      if (res.headersSent || res.destroyed) return void up.resume();
      // The worker's Connection and Keep-Alive describe its socket to us, not ours to the client.
      res.writeHead(up.statusCode ?? 502, withHeaders(rawWithoutHopByHop(up.rawHeaders), ours));
      up.pipe(res);
    });
    upstream.on("error", (error) => {
      // The browser went away (a cancelled prefetch, a closed tab): nothing failed.
      if (clientGone) return;
      // The worker answered before reading the whole body and stopped reading: its answer
      // stands (the change may be made), the rest of the body is read and dropped.
      if (answered) {
        req.unpipe(upstream);
        req.resume();
        return;
      }
      log("error", "page request failed in the Next.js worker", { url: req.url, error: error.message });
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain", ...NOSNIFF });
        res.end("Telltale's web UI is not available right now.");
      } else res.destroy();
    });
    let clientGone = false;
    res.on("close", () => {
      if (!res.writableFinished) {
        clientGone = true;
        upstream.destroy();
      }
    });
    req.pipe(upstream);
  };
}
