import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect as tcpConnect } from "node:net";
import { parseSettings } from "../../src/config/settings";
import { parseDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import type { IngestRuntime } from "../../src/core/ingest/accept";
import { createFront } from "../../src/server/front";
import { createIngestRuntime } from "../../src/server/ingest/ingest-runtime";

export interface TestFront {
  base: string;
  port: number;
  runtime: IngestRuntime;
  /** What the tunnel's upstream received, one body per request. */
  upstreamBodies: string[];
  /** The DSN the tunnel forwards to; its upstream answers 200 with an X-Sentry-Error outside ASCII. */
  tunnelDsn: string;
  /** How many connections the front holds open now. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

const listen = async (server: Server, port = 0): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

/**
 * The front server as serve.ts builds it, on loopback: ingest on `ctx`, the tunnel to a
 * local upstream that answers 200, and pages answered by a stub that reads the whole body
 * (as the Next.js worker's proxy does) and answers `page <bytes>`. `port` 0 picks a free one;
 * a fixed one lets a program built with a DSN in it meet each database's front in turn.
 */
export async function startFront(ctx: Ctx, env: Record<string, string> = {}, port = 0): Promise<TestFront> {
  const settings = parseSettings(env);
  const runtime = createIngestRuntime(ctx, settings, 0, { keyCacheMs: 0 });
  const upstreamBodies: string[] = [];
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      upstreamBodies.push(Buffer.concat(chunks).toString("utf8"));
      // Latin-1 that node lets through, as an upstream quoting the browser might send it.
      res.writeHead(200, { "content-type": "application/json", "x-sentry-error": "upstream quotes caf\u00e9 \u00ff" }).end("{}");
    });
  });
  const upstreamPort = await listen(upstream);
  const tunnelDsn = `http://${"0123456789abcdef".repeat(2)}@127.0.0.1:${upstreamPort}/42`;
  const dsn = parseDsn(tunnelDsn)!;
  const front = createFront({
    ingest: runtime,
    tunnel: { dsn },
    clients: settings.clients,
    pages: (req, res) => {
      let bytes = 0;
      req.on("data", (c: Buffer) => (bytes += c.length));
      req.on("end", () => {
        if (!res.headersSent) res.writeHead(200, { "content-type": "text/plain" }).end(`page ${bytes}`);
      });
    },
  });
  const frontPort = await listen(front, port);
  return {
    base: `http://127.0.0.1:${frontPort}`,
    port: frontPort,
    runtime,
    upstreamBodies,
    tunnelDsn,
    connections: () => new Promise<number>((resolve, reject) => front.getConnections((error, n) => (error ? reject(error) : resolve(n)))),
    async close() {
      front.closeAllConnections();
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
      await runtime.outcomes.flush();
    },
  };
}

export interface RawReply {
  /** Everything the server wrote before it closed the connection or `waitMs` passed. */
  text: string;
  /** The status of the first response, 0 when there was none. */
  status: number;
  closed: boolean;
  ms: number;
}

/**
 * Writes `parts` to a fresh TCP connection (pausing `gapMs` between them) and collects the
 * answer: for requests an HTTP client would refuse to send (bad framing, raw bytes in headers).
 */
export function raw(
  port: number,
  parts: (Buffer | string)[],
  options: { gapMs?: number; waitMs?: number; endWrite?: boolean } = {},
): Promise<RawReply> {
  const { gapMs = 0, waitMs = 3000, endWrite = false } = options;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = tcpConnect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ text, status: m ? Number(m[1]) : 0, closed, ms: Date.now() - started });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      finish();
    });
    void (async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
      if (endWrite && !socket.destroyed) socket.end();
    })();
  });
}
