import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDsn } from "../../src/core/auth/dsn";
import { handleTunnel, type TunnelTarget } from "../../src/server/tunnel";

const KEY = "0123456789abcdef0123456789abcdef";

async function listen(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

describe("the self-monitoring tunnel", () => {
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let upstream: Server;
  let tunnel: Server;
  let offTunnel: Server;
  let dsn: string;
  let tunnelUrl: string;
  let offUrl: string;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ url: req.url ?? "", headers: req.headers, body });
        res.writeHead(429, { "retry-after": "60", "x-sentry-rate-limits": "60:error:key" });
        res.end("{}");
      });
    });
    const upstreamPort = await listen(upstream);
    dsn = `http://${KEY}@127.0.0.1:${upstreamPort}/42`;
    const target: TunnelTarget = { dsn: parseDsn(dsn)! };
    tunnel = createServer((req, res) => void handleTunnel(target, req, res));
    offTunnel = createServer((req, res) => void handleTunnel(null, req, res));
    tunnelUrl = `http://127.0.0.1:${await listen(tunnel)}/api/telltale/tunnel/`;
    offUrl = `http://127.0.0.1:${await listen(offTunnel)}/api/telltale/tunnel/`;
  });

  afterAll(() => {
    for (const s of [upstream, tunnel, offTunnel]) s.close();
  });

  const envelope = (header: Record<string, unknown>) => `${JSON.stringify(header)}\n{"type":"event"}\n{"message":"hello"}\n`;

  it("forwards an envelope for the configured DSN and passes the rate-limit answer back", async () => {
    const body = envelope({ dsn, event_id: "a".repeat(32) });
    const res = await fetch(tunnelUrl, { method: "POST", body });
    expect(res.status).toBe(429);
    expect(res.headers.get("x-sentry-rate-limits")).toBe("60:error:key");
    expect(res.headers.get("retry-after")).toBe("60");
    const last = received.at(-1);
    expect(last?.url).toBe(`/api/42/envelope/?sentry_version=7&sentry_key=${KEY}`);
    expect(last?.headers["content-type"]).toBe("application/x-sentry-envelope");
    expect(last?.body).toBe(body);
  });

  it("refuses an envelope naming any other DSN, so it is not an open relay", async () => {
    const before = received.length;
    for (const other of [`http://${KEY}@evil.example:80/42`, `http://${"f".repeat(32)}@127.0.0.1:1/42`, dsn.replace("/42", "/43")]) {
      const res = await fetch(tunnelUrl, { method: "POST", body: envelope({ dsn: other }) });
      expect(res.status).toBe(403);
    }
    expect(received.length).toBe(before);
  });

  it("answers 400 without an envelope header or without a DSN", async () => {
    expect((await fetch(tunnelUrl, { method: "POST", body: "not json\n{}" })).status).toBe(400);
    expect((await fetch(tunnelUrl, { method: "POST", body: envelope({ event_id: "b".repeat(32) }) })).status).toBe(400);
  });

  it("answers 405 to anything but POST", async () => {
    expect((await fetch(tunnelUrl)).status).toBe(405);
  });

  it("does not exist when self-monitoring reports to Telltale itself or is off", async () => {
    const res = await fetch(offUrl, { method: "POST", body: envelope({ dsn }) });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});
