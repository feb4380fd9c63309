import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ClientTimeouts } from "../config/settings";
import type { IngestRuntime } from "../core/ingest/accept";
import { isBuildSourceMap } from "./build-maps-route";
import { applyClientTimeouts, serverOptions, trackResponse, watchBodyRate } from "./client-timeouts";
import { handleIngest } from "./ingest/handler";
import { sendJson } from "./http";
import { log } from "./log";
import { handleTunnel, TUNNEL_PATH, type TunnelTarget } from "./tunnel";

const INGEST_PATH = /^\/api\/(\d+)\/(envelope|store)\/?$/;

export interface FrontOptions {
  ingest: IngestRuntime;
  /** Where page and web API requests go once the Next.js worker is ready. */
  pages: (req: IncomingMessage, res: ServerResponse) => void;
  tunnel: TunnelTarget | null;
  clients: ClientTimeouts;
}

/**
 * The public HTTP server. Ingest and the tunnel are answered here, on the main thread,
 * by the framework-free core: no Next.js and no self-monitoring instrumentation on that
 * path (decision 0001 measured each costing ingest half its throughput). Everything else goes to
 * the Next.js worker. Every request, proxied ones included, is held to the slow-client
 * time-outs (./client-timeouts.ts).
 */
export function createFront(options: FrontOptions): Server {
  const server = createServer(serverOptions(options.clients), (req, res) => {
    trackResponse(req, res);
    watchBodyRate(req, res, options.clients);
    // Only origin-form targets (`/path`): an absolute-form line (`POST http://evil.example/…`)
    // would otherwise reach Next.js, which redirects to the host it names.
    if (!(req.url ?? "").startsWith("/")) {
      req.resume();
      log("info", "client request refused", { reason: "request target is not a path" });
      return sendJson(res, 400, { detail: "the request target must be a path" }, { connection: "close" });
    }
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    // Ingest and tunnel answers merge this in; pages get it again from the proxy.
    res.setHeader("x-content-type-options", "nosniff");
    const ingest = INGEST_PATH.exec(path);
    const work = ingest
      ? handleIngest(options.ingest, req, res, { projectId: Number(ingest[1]), endpoint: ingest[2] === "store" ? "store" : "envelope" })
      : path === TUNNEL_PATH || path === TUNNEL_PATH.slice(0, -1)
        ? handleTunnel(options.tunnel, req, res, options.ingest.memory)
        : null;
    if (!work && isBuildSourceMap(path)) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("Not found");
      return;
    }
    if (!work) return options.pages(req, res);
    work.catch((error: unknown) => {
      log("error", "request failed", { path: path.slice(0, 200), error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendJson(res, 500, { detail: "internal error" });
      else res.destroy();
    });
  });
  applyClientTimeouts(server, options.clients);
  return server;
}
