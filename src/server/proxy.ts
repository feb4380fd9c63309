import { Agent, request, type IncomingMessage, type ServerResponse } from "node:http";
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
    const headers = { ...req.headers };
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
    const upstream = request({ agent, socketPath, method: req.method, path: req.url, headers }, (up) => {
      // Already answered: the client was cut off as too slow (./client-timeouts.ts).
      if (res.headersSent || res.destroyed) return void up.resume();
      res.writeHead(up.statusCode ?? 502, withHeaders(up.rawHeaders, ours));
      up.pipe(res);
    });
    upstream.on("error", (error) => {
      // The browser went away (a cancelled prefetch, a closed tab): nothing failed.
      if (clientGone) return;
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
