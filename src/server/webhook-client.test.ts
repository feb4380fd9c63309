import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRefusal } from "../core/net/address-policy";
import { createWebhookClient } from "./webhook-client";

interface Seen {
  method: string;
  path: string;
  host: string;
  body: string;
}

/** A receiver on loopback: `/ok` answers 200, `/to?url=…` redirects there (302, or 307 with `code=307`), `/slow` never answers. */
async function receiver(): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({ method: req.method ?? "", path: url.pathname, host: req.headers.host ?? "", body: Buffer.concat(chunks).toString() });
      if (url.pathname === "/slow") return;
      if (url.pathname === "/to") {
        res.writeHead(Number(url.searchParams.get("code") ?? 302), { location: url.searchParams.get("url") ?? "/" }).end();
        return;
      }
      res.writeHead(url.pathname === "/ok" ? 200 : 404, { "content-type": "text/plain" }).end(`answer of ${url.pathname} `.repeat(200));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

describe("the alert webhook client", () => {
  let r: Awaited<ReturnType<typeof receiver>>;
  const post = (url: string) => ({ url, headers: { "content-type": "application/json" }, body: '{"a":1}' });
  beforeAll(async () => {
    r = await receiver();
  });
  afterAll(() => {
    r.server.closeAllConnections();
    r.server.close();
  });

  it("refuses loopback without TELLTALE_ALERTS_ALLOW_PRIVATE_URLS, by address and by name, and sends nothing", async () => {
    const client = createWebhookClient({ allowPrivate: false });
    const before = r.seen.length;
    const byAddress = await client.post(post(`http://127.0.0.1:${r.port}/ok`));
    expect(byAddress).toMatchObject({ status: null, refused: true });
    expect(byAddress.error).toBe(
      "refused: 127.0.0.1 resolves to 127.0.0.1 is a loopback address (TELLTALE_ALERTS_ALLOW_PRIVATE_URLS allows it)",
    );
    const byName = await client.post(post(`http://localhost:${r.port}/ok`));
    expect(byName).toMatchObject({ status: null, refused: true });
    expect(byName.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    expect((await client.post(post(`http://[::1]:${r.port}/ok`))).refused).toBe(true);
    expect(r.seen.length).toBe(before);
  });

  it("posts with the setting on, and records the answer's status and its start", async () => {
    const res = await createWebhookClient({ allowPrivate: true }).post(post(`http://localhost:${r.port}/ok`));
    expect(res).toMatchObject({ status: 200, error: null, refused: false });
    expect(res.response!.startsWith("answer of /ok answer of /ok")).toBe(true);
    expect(res.response!.length).toBe(1000);
    expect(r.seen.at(-1)).toMatchObject({ method: "POST", path: "/ok", body: '{"a":1}' });
  });

  it("checks every redirect against what its host resolves to, and connects to the address it checked", async () => {
    // Loopback stands in for a public address here; everything else is judged as in production.
    const refusal = (a: string) => (a === "127.0.0.1" ? null : addressRefusal(a));
    const names: Record<string, string> = { "public.test": "127.0.0.1", "private.test": "192.168.1.10", "meta.test": "169.254.169.254" };
    const lookup = async (host: string) => (names[host] ? [{ address: names[host], family: 4 }] : []);
    const client = createWebhookClient({ allowPrivate: false, refusal, lookup });
    const before = r.seen.length;
    // The name resolves to the checked address and the request goes there, keeping its Host.
    const ok = await client.post(post(`http://public.test:${r.port}/to?code=307&url=/ok`));
    expect(ok.status).toBe(200);
    expect(r.seen.slice(before).map((s) => [s.method, s.path, s.host])).toEqual([
      ["POST", "/to", `public.test:${r.port}`],
      ["POST", "/ok", `public.test:${r.port}`],
    ]);
    for (const target of [`http://private.test:${r.port}/ok`, "http://meta.test/latest/meta-data/", `http://[fd00::1]:${r.port}/`]) {
      const n = r.seen.length;
      const res = await client.post(post(`http://public.test:${r.port}/to?url=${encodeURIComponent(target)}`));
      expect(res).toMatchObject({ status: null, refused: true });
      expect(res.error).toMatch(/^refused: .* is a (private|link-local|unique-local) address/);
      expect(r.seen.length).toBe(n + 1);
    }
  });

  it("follows 302 with a GET and stops after three redirects", async () => {
    const client = createWebhookClient({ allowPrivate: true });
    const before = r.seen.length;
    expect((await client.post(post(`http://127.0.0.1:${r.port}/to?url=/ok`))).status).toBe(200);
    expect(r.seen.slice(before).map((s) => s.method)).toEqual(["POST", "GET"]);
    const loop = `http://127.0.0.1:${r.port}/to?url=${encodeURIComponent("/to?url=/to%3Furl%3D/to%253Furl%253D/ok")}`;
    const res = await client.post(post(loop));
    expect(res).toMatchObject({ status: 302, error: "more than 3 redirects", refused: false });
  });

  it("gives up on a receiver that does not answer in time, and on a URL that is not http", async () => {
    const res = await createWebhookClient({ allowPrivate: true, timeoutMs: 300 }).post(post(`http://127.0.0.1:${r.port}/slow`));
    expect(res).toMatchObject({ status: null, error: "no answer within 0.3 s", refused: false });
    expect((await createWebhookClient({ allowPrivate: true }).post(post("file:///etc/passwd"))).refused).toBe(true);
  });
});
