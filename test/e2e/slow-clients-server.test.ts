import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createToken } from "../../src/core/tokens/tokens";
import { raw } from "../support/front";
import { startServer, type TestServer } from "../support/server";
import { openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * The built server (`telltale serve`) applies the slow-client settings, and a body trickled
 * to a page goes through the real proxy to the Next.js worker before it is cut off: the
 * worker's late answer must not end the process.
 */
describe("slow clients against the built server", () => {
  let store: TestStore;
  let server: TestServer;
  let token = "";

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "ops@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "acme", owner: "ops@example.com" } });
    ({ token } = await createToken({ ctx, input: { user: "ops@example.com" } }));
    server = await startServer({
      ...store.env,
      TELLTALE_SELF_DSN: "off",
      TELLTALE_HEADERS_TIMEOUT_MS: "1000",
      TELLTALE_MIN_BODY_RATE: "20000",
      TELLTALE_BODY_RATE_WINDOW_MS: "1000",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await store?.cleanup();
  });

  const head = (path: string, length: number, method = "POST") =>
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\n\r\n`;

  it("cuts off a header trickle with 408", async () => {
    const reply = await raw(server.port, [...head("/login", 2)], { gapMs: 50, waitMs: 10_000 });
    expect(reply.status, reply.text).toBe(408);
    expect(reply.ms).toBeLessThan(4000);
  });

  it.each([
    // The worker reads this body (an authenticated web API PUT): the front cuts it off with 408.
    ["a web API PUT the worker reads", "PUT", "/api/0/organizations/acme/issues/1/", () => `Authorization: Bearer ${token}\r\n`, true],
    // The worker answers these before reading: the connection closes with its answer.
    ["a server action", "POST", "/login", () => "Next-Action: 0000000000000000000000000000000000000000\r\n", false],
    ["a page POST", "POST", "/login", () => "", false],
  ])("ends a body trickled to %s through the proxy, and keeps serving pages", async (_name, method, path, extra, cut) => {
    const start = head(path, 1_000_000, method).replace("\r\n\r\n", `\r\n${extra()}\r\n`);
    const reply = await raw(server.port, [start, ...Array.from({ length: 200 }, () => "a=bbbbbbbb")], { gapMs: 50, waitMs: 10_000 });
    if (cut) expect(reply.status, reply.text).toBe(408);
    else expect(reply.status, reply.text).toBeLessThan(500);
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(5000);
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
    if (cut) await expect.poll(() => server.logs(), { timeout: 10_000 }).toMatch(/request body too slow/);
  });

  // A client's Connection: close once reached the worker, which closed its socket while
  // the proxy still wrote the body: a 502 though the change was made. Python's urllib sends these.
  it("answers each PUT with a body and Connection: close through the proxy, none lost as a 502", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const body = JSON.stringify({ name: `Acme ${i}` });
      const start = head("/api/0/organizations/acme/", Buffer.byteLength(body), "PUT")
        .replace("x-www-form-urlencoded", "json")
        .replace("\r\n\r\n", `\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      statuses.push((await raw(server.port, [start, body], { gapMs: 2, waitMs: 10_000 })).status);
    }
    expect(statuses).toEqual(Array(20).fill(200));
  });

  it("answers a server action from another origin with 403, and a request line to another host with 400", async () => {
    const action = head("/login", 2).replace(
      "\r\n\r\n",
      "\r\nOrigin: http://evil.example\r\nNext-Action: 0000000000000000000000000000000000000000\r\n\r\n",
    );
    expect((await raw(server.port, [action, "{}"])).status).toBe(403);
    const absolute = head("/login", 2).replace("POST /login", "POST http://evil.example/login");
    const reply = await raw(server.port, [absolute, "{}"]);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.text).not.toMatch(/evil\.example/);
  });
});
