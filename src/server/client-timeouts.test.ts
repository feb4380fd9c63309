import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { raw } from "../../test/support/front";
import type { ClientTimeouts } from "../config/settings";
import { applyClientTimeouts, serverOptions, trackResponse, watchBodyRate } from "./client-timeouts";
import { setLogLevel } from "./log";

const T: ClientTimeouts = { headersMs: 400, idleMs: 5000, requestMs: 20_000, minBodyBytesPerSecond: 50_000, bodyRateWindowMs: 300 };
const head = (length: number, connection = "close") =>
  `POST / HTTP/1.1\r\nHost: x\r\nConnection: ${connection}\r\nContent-Length: ${length}\r\n\r\n`;

describe("client time-outs", () => {
  let server: Server | undefined;
  beforeAll(() => setLogLevel("error"));
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  /** A server with the time-outs whose handler is `handle`; answers `read <bytes>` when the body ends. */
  async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
    server = createServer(serverOptions(T), (req, res) => {
      trackResponse(req, res);
      watchBodyRate(req, res, T);
      handle(req, res);
    });
    applyClientTimeouts(server, T);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }

  const readAll = (req: IncomingMessage, res: ServerResponse) => {
    let bytes = 0;
    req.on("data", (c: Buffer) => (bytes += c.length));
    req.on("end", () => res.writeHead(200).end(`read ${bytes}`));
  };

  it("checks node's time-outs often enough for a short header time-out", () => {
    expect(serverOptions(T).connectionsCheckingInterval).toBe(100);
    expect(serverOptions({ ...T, headersMs: 20_000 }).connectionsCheckingInterval).toBe(1000);
  });

  it("does not hold a body against the client while the handler is not reading it (back-pressure)", async () => {
    const port = await listen((req, res) => {
      readAll(req, res);
      // Stops reading after the first chunk, for three windows, as a pipe to a slow writer does.
      req.once("data", () => {
        req.pause();
        setTimeout(() => req.resume(), 1000);
      });
    });
    const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const reply = await raw(port, [head(body.length), body], { waitMs: 10_000 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toMatch(/read 4194304/);
  });

  it("cuts off a body below the minimum rate with 408 and closes the connection", async () => {
    const port = await listen(readAll);
    const reply = await raw(port, [head(100_000), ...Array.from({ length: 40 }, () => Buffer.alloc(100, 0x61))], {
      gapMs: 50,
      waitMs: 10_000,
    });
    expect(reply.status, reply.text).toBe(408);
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(1500);
  });

  it("cuts off a client that was answered early but keeps trickling its body", async () => {
    const port = await listen((req, res) => {
      res.writeHead(401).end("no");
      req.resume();
    });
    const reply = await raw(port, [head(100_000, "keep-alive"), ...Array.from({ length: 60 }, () => Buffer.alloc(100, 0x61))], {
      gapMs: 50,
      waitMs: 10_000,
    });
    expect(reply.status).toBe(401);
    expect(reply.ms).toBeGreaterThan(T.bodyRateWindowMs);
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(2000);
  });

  it("leaves a request without a body alone", async () => {
    const port = await listen((_req, res) => void setTimeout(() => res.writeHead(204).end(), 700));
    const reply = await raw(port, ["GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], { waitMs: 5000 });
    expect(reply.status).toBe(204);
  });
});
