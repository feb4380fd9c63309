import { Agent, request, type IncomingMessage, type ServerResponse } from "node:http";
import { log } from "./log";

/**
 * Hands a request to the Next.js worker over a unix socket, streaming both bodies.
 * The client address and scheme travel in X-Forwarded-* headers, which the worker trusts
 * only from this front (it listens on a private socket, not on the network).
 */
export function createProxy(socketPath: string, trustProxy: boolean) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return function proxy(req: IncomingMessage, res: ServerResponse): void {
    const headers = { ...req.headers };
    const peer = req.socket.remoteAddress ?? "";
    const forwardedFor = trustProxy && typeof headers["x-forwarded-for"] === "string" ? `${headers["x-forwarded-for"]}, ${peer}` : peer;
    headers["x-forwarded-for"] = forwardedFor;
    if (!trustProxy || !headers["x-forwarded-proto"]) headers["x-forwarded-proto"] = "http";
    if (!trustProxy || !headers["x-forwarded-host"]) headers["x-forwarded-host"] = req.headers.host ?? "";
    const upstream = request({ agent, socketPath, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.rawHeaders);
      up.pipe(res);
    });
    upstream.on("error", (error) => {
      // The browser went away (a cancelled prefetch, a closed tab): nothing failed.
      if (clientGone) return;
      log("error", "page request failed in the Next.js worker", { url: req.url, error: error.message });
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
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
