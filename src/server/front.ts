import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { IngestRuntime } from "../core/ingest/accept";
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
}

/**
 * The public HTTP server. Ingest and the tunnel are answered here, on the main thread,
 * by the framework-free core: no Next.js and no self-monitoring instrumentation on that
 * path (toolchain.md: either costs ingest half its throughput). Everything else goes to
 * the Next.js worker.
 */
export function createFront(options: FrontOptions): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const ingest = INGEST_PATH.exec(path);
    const work = ingest
      ? handleIngest(options.ingest, req, res, { projectId: Number(ingest[1]), endpoint: ingest[2] === "store" ? "store" : "envelope" })
      : path === TUNNEL_PATH || path === TUNNEL_PATH.slice(0, -1)
        ? handleTunnel(options.tunnel, req, res)
        : null;
    if (!work) return options.pages(req, res);
    work.catch((error: unknown) => {
      log("error", "request failed", { path, error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendJson(res, 500, { detail: "internal error" });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeout
  server.headersTimeout = 66_000;
  server.requestTimeout = 300_000;
  return server;
}
