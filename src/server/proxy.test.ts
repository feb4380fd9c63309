import { once } from "node:events";
import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTrustProxy, type TrustProxy } from "../core/net/client-ip";
import { createProxy } from "./proxy";

/** A stand-in for the Next.js worker: answers with the headers it was sent, plus one it would like to set. */
let worker: Server;
const socketPath = join(tmpdir(), `telltale-proxy-test-${process.pid}.sock`);
const fronts: Server[] = [];

beforeAll(async () => {
  worker = createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json", "x-frame-options": "ALLOWALL" });
    res.end(JSON.stringify(req.headers));
  });
  worker.listen(socketPath);
  await once(worker, "listening");
});
afterAll(async () => {
  for (const f of fronts) f.close();
  await new Promise((r) => worker.close(r));
});

async function front(trustProxy: TrustProxy, https = false): Promise<number> {
  const server = createServer(createProxy(socketPath, { trustProxy, https }));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  fronts.push(server);
  return (server.address() as AddressInfo).port;
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ headers: IncomingHttpHeaders; seen: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ headers: res.headers, seen: JSON.parse(body) as IncomingHttpHeaders }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** One request on its own connection, the body written after the head as Python's urllib does; the whole reply once the server closes. */
function rawExchange(port: number, head: string, body = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    socket.on("data", (d: Buffer) => (reply += d.toString("latin1")));
    socket.on("close", () => resolve(reply));
    socket.on("error", reject);
    socket.write(head);
    // A little later, so the worker has answered the head before the body arrives.
    if (body) setTimeout(() => socket.write(body), 5);
  });
}

const trust = (value: string) => parseTrustProxy(value) ?? expect.unreachable();

describe("the page proxy", () => {
  it("hands the worker the client address it resolved, replacing any the client sent", async () => {
    const forged = { "x-telltale-client-ip": "6.6.6.6", "x-forwarded-for": "6.6.6.6" };
    const direct = await get(await front(trust("false")), "/login", forged);
    expect(direct.seen["x-telltale-client-ip"]).toBe("127.0.0.1");
    expect(direct.seen["x-forwarded-for"]).toBe("127.0.0.1");

    const behindOne = await get(await front(trust("true")), "/login", { ...forged, "x-forwarded-for": "6.6.6.6, 198.51.100.4" });
    expect(behindOne.seen["x-telltale-client-ip"]).toBe("198.51.100.4");
    expect(behindOne.seen["x-forwarded-for"]).toBe("198.51.100.4");

    const rangeNotMatching = await get(await front(trust("10.0.0.0/8")), "/login", forged);
    expect(rangeNotMatching.seen["x-telltale-client-ip"]).toBe("127.0.0.1");
  });

  it("believes X-Forwarded-Proto only from a trusted proxy", async () => {
    expect((await get(await front(trust("false")), "/", { "x-forwarded-proto": "https" })).seen["x-forwarded-proto"]).toBe("http");
    expect((await get(await front(trust("127.0.0.0/8")), "/", { "x-forwarded-proto": "https" })).seen["x-forwarded-proto"]).toBe("https");
  });

  it("gives each page a policy with a fresh nonce, the same one the worker is told, whatever the client sent", async () => {
    const port = await front(trust("false"));
    const first = await get(port, "/orgs", { "content-security-policy": "script-src 'nonce-chosen-by-the-client'" });
    const second = await get(port, "/orgs");
    const csp = String(first.headers["content-security-policy"]);
    expect(first.seen["content-security-policy"]).toBe(csp);
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'/);
    expect(csp).not.toContain("chosen-by-the-client");
    expect(csp.split("; ").find((d) => d.startsWith("script-src "))).not.toContain("'unsafe-");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(second.headers["content-security-policy"]).not.toBe(csp);
    expect(first.headers).toMatchObject({
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
    });
    expect(first.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends HSTS and upgrades requests when the public URL is https", async () => {
    const { headers } = await get(await front(trust("false"), true), "/orgs");
    expect(headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(headers["content-security-policy"]).toContain("upgrade-insecure-requests");
  });

  it("sends the web API no policy and no CORS, but nosniff and no framing", async () => {
    const { headers, seen } = await get(await front(trust("false")), "/api/0/organizations/", {
      "content-security-policy": "script-src 'nonce-x'",
      origin: "https://evil.example",
    });
    expect(headers["content-security-policy"]).toBeUndefined();
    expect(seen["content-security-policy"]).toBeUndefined();
    expect(headers["access-control-allow-origin"]).toBeUndefined();
    expect(headers).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY" });
  });

  it("answers every request with a body and Connection: close, though the worker answers before reading it", async () => {
    // The stand-in answers at once, as Next.js does to a method a page does not take.
    const port = await front(trust("false"));
    const body = JSON.stringify({ name: "x".repeat(200_000) });
    const replies: string[] = [];
    for (let i = 0; i < 20; i++) {
      const head = `PUT /api/0/teams/acme/core/ HTTP/1.1\r\nHost: telltale.example\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      replies.push(await rawExchange(port, head, body));
    }
    expect(replies.map((r) => r.split("\r\n")[0])).toEqual(Array(20).fill("HTTP/1.1 200 OK"));
    const seen = JSON.parse(replies[0]!.slice(replies[0]!.indexOf("{"), replies[0]!.lastIndexOf("}") + 1)) as IncomingHttpHeaders;
    // Connection is this hop's: the worker's socket stays open, and the client hears its own close.
    expect(seen.connection).toBe("keep-alive");
    expect(replies[0]).toMatch(/\r\nConnection: close\r\n/i);
  });

  it("refuses a change to a page from another origin with 403, as Next.js would with a 500", async () => {
    const port = await front(trust("false"));
    const post = (origin: string) =>
      rawExchange(
        port,
        `POST /login HTTP/1.1\r\nHost: telltale.example\r\nOrigin: ${origin}\r\nNext-Action: abc\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    expect((await post("https://evil.example")).split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect((await post("null")).split("\r\n")[0]).toBe("HTTP/1.1 403 Forbidden");
    expect((await post("http://telltale.example")).split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
  });

  it("answers 404 to a page URL with an identifier that cannot exist, before the worker looks it up", async () => {
    const port = await front(trust("false"));
    const status = async (path: string) =>
      (await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: telltale.example\r\nConnection: close\r\n\r\n`)).split("\r\n")[0];
    for (const path of ["/orgs/%00", "/orgs/ac%00me/issues", "/orgs/a%FFb", `/orgs/${"x".repeat(500)}`, "/orgs/acme/issues?query=%00"])
      expect(await status(path), path).toBe("HTTP/1.1 404 Not Found");
    expect(await status("/orgs/acme/issues?query=is%3Aunresolved")).toBe("HTTP/1.1 200 OK");
  });
});
