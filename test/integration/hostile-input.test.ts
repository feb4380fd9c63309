import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { Compressor, compress as zstdCompress } from "zstd-napi";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { Project, ProjectKey } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { buildEnvelope, chunksOf, errorEnvelope, newEventId, send, type Body, type Reply } from "../support/envelopes";
import { raw, startFront, type RawReply, type TestFront } from "../support/front";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

const MiB = 1024 * 1024;
const ENVELOPE = { "content-type": "application/x-sentry-envelope" };
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Inputs an attacker would try against the endpoints the front answers itself (ingest and
 * the tunnel): each must answer a 4xx with a log line, never a 5xx or a crash, never echo
 * the client's bytes into a response header, and the server must keep serving.
 */
describe.each(DIALECTS)("hostile input to the front server on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  let project: Project;
  let key: ProjectKey;
  let logs: string[] = [];
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "hostile" } });
    ({ project, key } = await createProject({ ctx, input: { org: "hostile", slug: "web" } }));
    front = await startFront(ctx);
    process.on("uncaughtException", record);
    setLogLevel("info");
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      logs.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    setLogLevel("warn");
    process.off("uncaughtException", record);
    await front?.close();
    await store?.cleanup();
  });
  beforeEach(() => {
    logs = [];
  });

  const envelopeUrl = (path = `/api/${project.id}/envelope/`) => `${front.base}${path}?sentry_version=7&sentry_key=${key.public_key}`;
  const tunnelUrl = () => `${front.base}/api/telltale/tunnel/`;
  const post = (url: string, body: Body, headers: Record<string, string> = {}) => send(url, { body, headers: { ...ENVELOPE, ...headers } });

  /** The answer is the given 4xx, its headers hold only printable ASCII, a line was logged, and a good envelope still goes in. */
  async function expectRefused(reply: Reply, status: number, logged: RegExp): Promise<void> {
    expect(reply.status, reply.text).toBe(status);
    for (const [name, value] of Object.entries(reply.headers)) expect(String(value), name).toMatch(PRINTABLE_ASCII);
    expect(logs.join(""), "a log line").toMatch(logged);
    await stillServes();
  }

  async function stillServes(): Promise<void> {
    expect(uncaught).toEqual([]);
    const id = newEventId();
    const reply = await post(envelopeUrl(), errorEnvelope(id, "after a hostile request"));
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ id });
  }

  const rejected = /ingest rejected/;
  /** A raw ingest request: the request line, Host, then `headers` (CRLF-terminated lines), a blank line and `body`. */
  const rawPost = (headers: string, body: (string | Buffer)[] = [], options: Parameters<typeof raw>[2] = {}) =>
    raw(
      front.port,
      [`POST /api/${project.id}/envelope/?sentry_key=${key.public_key} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`, ...body],
      options,
    );
  const refusedRaw = async (reply: RawReply, status: number) =>
    expectRefused({ status: reply.status, headers: {}, text: reply.text }, status, /client request refused/);
  const gzipped = gzipSync(errorEnvelope(newEventId(), "compressed"));
  // A frame compressed with a 32 MiB window: 1 MiB of varied bytes, 20 MiB of zeros, the same
  // 1 MiB again. Decoding it would keep over 20 MiB for one request, more than the 8 MiB ingest
  // allows (src/server/ingest/zstd-body.ts); on the wire it is about 1 MiB.
  const wideZstd = (() => {
    const compressor = new Compressor();
    compressor.setParameters({ windowLog: 25, compressionLevel: 1 });
    const varied = Buffer.alloc(MiB);
    for (let i = 0; i < varied.length; i += 4) varied.writeUInt32LE((i * 2654435761) >>> 0, i);
    return compressor.compress(Buffer.concat([varied, Buffer.alloc(20 * MiB), varied]));
  })();

  describe("content encodings", () => {
    const cases: [string, () => Body, string, number][] = [
      ["garbage as br", () => Buffer.from("this is not brotli at all, just text"), "br", 400],
      ["garbage as deflate", () => Buffer.from("this is not deflate"), "deflate", 400],
      ["garbage as gzip, chunked", () => chunksOf(Buffer.from("this is not gzip ".repeat(100)), 64), "gzip", 400],
      ["a truncated gzip body", () => gzipped.subarray(0, gzipped.length - 12), "gzip", 400],
      ["a truncated br body", () => brotliCompressSync(errorEnvelope(newEventId(), "br")).subarray(0, 20), "br", 400],
      ["a truncated deflate body", () => deflateSync(errorEnvelope(newEventId(), "deflate")).subarray(0, 20), "deflate", 400],
      ["gzip followed by trailing garbage", () => Buffer.concat([gzipped, Buffer.from("trailing garbage")]), "gzip", 400],
      ["an empty gzip body", () => Buffer.alloc(0), "gzip", 400],
      ["an empty br body", () => Buffer.alloc(0), "br", 400],
      ["garbage as zstd", () => Buffer.from("this is not zstd"), "zstd", 400],
      ["a truncated zstd body", () => zstdCompress(errorEnvelope(newEventId(), "zstd")).subarray(0, 20), "zstd", 400],
      ["zstd followed by trailing garbage", () => Buffer.concat([zstdCompress(gzipped), Buffer.from("trailing garbage")]), "zstd", 400],
      ["an empty zstd body", () => Buffer.alloc(0), "zstd", 400],
      ["a zstd frame that asks for a 32 MiB window", () => wideZstd, "zstd", 400],
      ["an unknown encoding", () => errorEnvelope(newEventId(), "compress"), "compress", 415],
      ["a list of encodings", () => gzipped, "gzip, br", 415],
      ["an encoding with Latin-1 bytes", () => gzipped, "gzip\u00e9\u00ff", 415],
    ];

    it.each(cases)("answers %s to the envelope endpoint with a 4xx", async (_name, body, encoding, status) => {
      await expectRefused(await post(envelopeUrl(), body(), { "content-encoding": encoding }), status, rejected);
    });

    it.each(cases)("answers %s to /store/", async (_name, body, encoding, status) => {
      const reply = await post(envelopeUrl(`/api/${project.id}/store/`), body(), {
        "content-encoding": encoding,
        "content-type": "application/json",
      });
      await expectRefused(reply, status, rejected);
    });

    it.each(cases)("answers %s to the tunnel", async (_name, body, encoding, status) => {
      await expectRefused(await post(tunnelUrl(), body(), { "content-encoding": encoding }), status, /tunnel refused/);
    });

    it("forwards a good envelope through the tunnel and passes the upstream's X-Sentry-Error back as printable ASCII", async () => {
      const body = buildEnvelope({ dsn: front.tunnelDsn }, [{ type: "event", payload: '{"message":"through"}' }]);
      const reply = await post(tunnelUrl(), body);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers["x-sentry-error"]).toBe("upstream quotes caf? ?");
      expect(front.upstreamBodies.at(-1)).toBe(body.toString("utf8"));
    });

    it("answers 413 to a gzip bomb sent to the tunnel", async () => {
      const bomb = gzipSync(Buffer.alloc(50 * MiB)); // the tunnel takes 20 MiB decompressed
      await expectRefused(await post(tunnelUrl(), chunksOf(bomb, 64 * 1024), { "content-encoding": "gzip" }), 413, /tunnel refused/);
    });
  });

  describe("envelope contents", () => {
    const cases: [string, () => Buffer, number][] = [
      ["an item type outside Latin-1", () => buildEnvelope({}, [{ type: "\u4e8b\u4ef6\u{1f4a5}", payload: "{}" }]), 200],
      ["an item header value outside Latin-1 (length)", () => Buffer.from('{}\n{"type":"event","length":"\u{1f4a5}"}\n{}\n'), 400],
      [
        "an item header with CR/LF in its type (kept as an unknown item)",
        () => Buffer.from('{}\n{"type":"event\\r\\nx-injected: 1","length":2}\n{}\n'),
        200,
      ],
      [
        "an attachment filename outside Latin-1",
        () => buildEnvelope({}, [{ type: "attachment", payload: "x", headers: { filename: "\u{1f4a5}.txt" } }]),
        200,
      ],
      [
        "invalid UTF-8 in the envelope header",
        () => Buffer.concat([Buffer.from('{"event_id":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}\n')]),
        400,
      ],
      [
        "invalid UTF-8 in an item header",
        () => Buffer.concat([Buffer.from('{}\n{"type":"'), Buffer.from([0xc3, 0x28, 0xa0]), Buffer.from('"}\n{}\n')]),
        400,
      ],
      [
        "invalid UTF-8 in an event payload",
        () =>
          Buffer.concat([Buffer.from('{}\n{"type":"event"}\n{"message":"'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('"}\n')]),
        200,
      ],
      ["a 2 MiB item header line", () => Buffer.from(`{}\n{"type":"event","pad":"${"x".repeat(2 * MiB)}"}\n{}\n`), 413],
      ["a 2 MiB envelope header line", () => Buffer.from(`{"pad":"${"x".repeat(2 * MiB)}"}\n`), 413],
      ["an envelope header nested 30,000 deep", () => Buffer.from(`${"[".repeat(30_000)}${"]".repeat(30_000)}\n`), 400],
      [
        "an envelope header nested 100,000 deep (past maxHeaderBytes)",
        () => Buffer.from(`${"[".repeat(100_000)}${"]".repeat(100_000)}\n`),
        413,
      ],
      ["a negative item length", () => Buffer.from('{}\n{"type":"event","length":-5}\n{}\n'), 400],
      ["an item length past 2^53", () => Buffer.from('{}\n{"type":"event","length":99999999999999999999}\n{}\n'), 400],
    ];

    it.each(cases)("answers %s without a 5xx or client text in a header", async (_name, body, status) => {
      const reply = await post(envelopeUrl(), body());
      if (status === 200) {
        expect(reply.status, reply.text).toBe(200);
        await stillServes();
      } else await expectRefused(reply, status, rejected);
    });
  });

  describe("URLs and headers", () => {
    it("answers 401 to an X-Sentry-Auth of 8 KiB of garbage", async () => {
      const reply = await post(`${front.base}/api/${project.id}/envelope/`, errorEnvelope(newEventId(), "x"), {
        "x-sentry-auth": `Sentry ${"sentry_key=\u00e9\u00ff, ".repeat(600)}`,
      });
      await expectRefused(reply, 401, rejected);
    });

    it("answers 401 to a sentry_key of malformed percent-escapes", async () => {
      const reply = await post(
        `${front.base}/api/${project.id}/envelope/?sentry_key=%ZZ%E9%80%FF&sentry_key=%`,
        errorEnvelope(newEventId(), "x"),
      );
      expect([400, 401]).toContain(reply.status);
      await expectRefused(reply, reply.status, rejected);
    });

    it("answers 401 to a query string of 1,000 parameters", async () => {
      const query = Array.from({ length: 1000 }, (_, i) => `p${i}=${i}`).join("&");
      await expectRefused(
        await post(`${front.base}/api/${project.id}/envelope/?${query}`, errorEnvelope(newEventId(), "x")),
        401,
        rejected,
      );
    });

    it("answers 431 to a query string of 5,000 parameters (past node's 16 KiB header limit)", async () => {
      const query = Array.from({ length: 5000 }, (_, i) => `p${i}=${i}`).join("&");
      await expectRefused(
        await post(`${front.base}/api/${project.id}/envelope/?${query}`, errorEnvelope(newEventId(), "x")),
        431,
        /client request refused/,
      );
    });

    it("answers 431 to a request line longer than node's header limit", async () => {
      await refusedRaw(
        await raw(front.port, [`POST /api/${project.id}/envelope/?${"a".repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`]),
        431,
      );
    });

    // PostgreSQL refuses a NUL in text with an error: the key is refused before it is looked up.
    it.each([
      ["envelope", "NUL", "%00"],
      ["envelope", "a NUL inside", "a%00b"],
      ["store", "NUL", "%00"],
      ["store", "a NUL inside", "a%00b"],
      ["envelope", "500 characters", "x".repeat(500)],
      ["envelope", "a lone surrogate", "%ED%A0%80"],
    ])("answers 401 to /%s/ with a sentry_key of %s, as to any key that cannot exist", async (endpoint, _name, bad) => {
      const body = endpoint === "store" ? Buffer.from('{"message":"x"}') : errorEnvelope(newEventId(), "x");
      const reply = await post(`${front.base}/api/${project.id}/${endpoint}/?sentry_key=${bad}`, body);
      await expectRefused(reply, 401, rejected);
    });

    it.each([
      ["a project id past 2^53", "/api/99999999999999999999999/envelope/"],
      ["a project id past PostgreSQL's integer", "/api/4294967296/envelope/"],
      ["project id 0", "/api/0/envelope/"],
    ])("answers %s with a 4xx", async (_name, path) => {
      const reply = await post(`${front.base}${path}?sentry_key=${key.public_key}`, errorEnvelope(newEventId(), "x"));
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(400);
      expect(reply.status, reply.text).toBeLessThan(500);
      await expectRefused(reply, reply.status, rejected);
    });

    const rawCases: [string, string, number][] = [
      ["a header value with a bare LF inside", "X-Sentry-Auth: Sentry sentry_key=abc\nInjected: yes\r\n", 400],
      ["a header value with a bare CR inside", "X-Sentry-Auth: Sentry sentry_key=abc\rInjected: yes\r\n", 400],
      ["a folded header line (obs-fold)", "X-Sentry-Auth: Sentry\r\n sentry_key=abc\r\n", 400],
      ["a header value with NUL", "X-Sentry-Auth: Sentry\u0000sentry_key=abc\r\n", 400],
      ["a non-numeric Content-Length", "Content-Length: abc\r\n", 400],
      ["two different Content-Lengths", "Content-Length: 5\r\nContent-Length: 6\r\n", 400],
      ["Content-Length and Transfer-Encoding together", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", 400],
      ["an unknown Transfer-Encoding", "Transfer-Encoding: gzip\r\n", 400],
      ["a negative Content-Length", "Content-Length: -1\r\n", 400],
      ["a Content-Length past 2^64", "Content-Length: 100000000000000000000\r\n", 400],
    ];

    it.each(rawCases)("answers %s with a bare 4xx", async (_name, headers, status) => {
      await refusedRaw(await rawPost(headers, ["hello"]), status);
    });

    it.each([
      ["an absolute-form request line to a page", "GET http://evil.example/login HTTP/1.1"],
      ["an absolute-form request line to ingest", "POST http://evil.example/api/1/envelope/ HTTP/1.1"],
    ])("answers %s with 400, never a redirect to that host", async (_name, line) => {
      const reply = await raw(front.port, [`${line}\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`]);
      expect(reply.text).not.toMatch(/evil\.example/);
      await refusedRaw(reply, 400);
    });

    it("answers 413 to a Content-Length of 10^15 before reading the body", async () => {
      const reply = await rawPost("Content-Length: 1000000000000000\r\n", ["{}"]);
      expect(reply.status, reply.text).toBe(413);
      expect(logs.join("")).toMatch(rejected);
      await stillServes();
    });

    it("answers header bytes outside ASCII (raw UTF-8 in X-Sentry-Auth) with 401", async () => {
      const head = `POST /api/${project.id}/envelope/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-Sentry-Auth: Sentry sentry_key=`;
      const reply = await raw(front.port, [
        Buffer.concat([Buffer.from(head), Buffer.from("\u{1f4a5}\u00e9", "utf8"), Buffer.from("\r\nConnection: close\r\n\r\n{}")]),
      ]);
      expect(reply.text.split("\r\n\r\n")[0]).toMatch(/^[\x20-\x7e\r\n]*$/);
      await expectRefused({ status: reply.status, headers: {}, text: reply.text }, 401, rejected);
    });
  });

  describe("bodies that do not match their framing", () => {
    it("answers 400 to a body shorter than its Content-Length when the client stops sending", async () => {
      const reply = await rawPost("Content-Length: 1000\r\n", ['{}\n{"type":"event"}\n{"mess'], { endWrite: true, waitMs: 2000 });
      // The client half-closed: node ends the request as cut off; whatever was answered, no 5xx.
      expect(reply.status === 0 || reply.status === 400, reply.text).toBe(true);
      await stillServes();
    });

    it("answers 400 to bytes past a body's Content-Length (a second request that is garbage) and closes", async () => {
      const body = errorEnvelope(newEventId(), "longer");
      const reply = await rawPost(`Content-Length: ${body.length}\r\n`, [body, "garbage that is not a request\r\n\r\n"]);
      // Node parses the extra bytes at once; the 400 for them may go out before the first answer.
      expect(reply.text).toMatch(/HTTP\/1\.1 400 Bad Request/);
      expect(reply.text).not.toMatch(/HTTP\/1\.1 5\d\d/);
      expect(reply.closed).toBe(true);
      expect(logs.join("")).toMatch(/client request refused/);
      await stillServes();
    });

    it("answers 400 to an empty body and to a chunked body with a broken chunk size", async () => {
      await expectRefused(await post(envelopeUrl(), Buffer.alloc(0)), 400, rejected);
      await refusedRaw(await rawPost("Transfer-Encoding: chunked\r\n", ["zz\r\nhello\r\n0\r\n\r\n"]), 400);
    });
  });
});
