import { createHash, randomBytes } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { statSync } from "node:fs";
import { finished } from "node:stream/promises";
import { brotliCompressSync, createGzip, deflateSync, gzipSync } from "node:zlib";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseSettings } from "../../src/config/settings";
import { buildDsn } from "../../src/core/auth/dsn";
import type { Ctx } from "../../src/core/context";
import { digestBatch } from "../../src/core/digest/batch";
import { parseEnvelope } from "../../src/core/envelope/index";
import type { IngestRuntime } from "../../src/core/ingest/accept";
import { KeyCache } from "../../src/core/ingest/project-config";
import { createKey, setKeyActive } from "../../src/core/keys/manage";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { Project, ProjectKey } from "../../src/db/schema";
import { handleIngest } from "../../src/server/ingest/handler";
import { createIngestRuntime, envelopeLimits } from "../../src/server/ingest/ingest-runtime";
import { setLogLevel } from "../../src/server/log";
import {
  buildEnvelope,
  chunksOf,
  errorEnvelope,
  eventItem,
  newEventId,
  rssGrowthDuring,
  send,
  spanEnvelope,
  transactionEnvelope,
  transactionPayload,
  type Body,
  type Reply,
} from "../support/envelopes";
import { outcomesOf, quantity } from "../support/ingest-db";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

/** The route as the front server derives it (src/server/front.ts). */
const INGEST_PATH = /^\/api\/(\d+)\/(envelope|store)\/?$/;
const MiB = 1024 * 1024;
/** How much the process may grow while one hostile or huge request is answered. */
const RSS_BOUND = 150 * 1024 * 1024;
const ENVELOPE = { "content-type": "application/x-sentry-envelope" };

let zeros: Promise<Buffer> | undefined;
/** 300 MiB of zeros as one gzip member (~300 KB): the payload of every bomb below, made once. */
function gzippedZeros(): Promise<Buffer> {
  zeros ??= (async () => {
    const gzip = createGzip({ level: 9 });
    const out: Buffer[] = [];
    gzip.on("data", (c: Buffer) => out.push(c));
    const block = Buffer.alloc(MiB);
    for (let i = 0; i < 300; i++) if (!gzip.write(block)) await new Promise((r) => gzip.once("drain", r));
    gzip.end();
    await finished(gzip);
    return Buffer.concat(out);
  })();
  return zeros;
}

/** A key lookup that takes `delayMs`, as on a busy database: the body keeps arriving meanwhile. */
class SlowKeyCache extends KeyCache {
  constructor(
    ctx: Ctx,
    private readonly delayMs: number,
  ) {
    super(ctx, 0);
  }

  override async get(publicKey: string) {
    await new Promise((r) => setTimeout(r, this.delayMs));
    return super.get(publicKey);
  }
}

/** An event payload of exactly `bytes` bytes. */
function eventOfSize(eventId: string, bytes: number): string {
  const base = JSON.stringify({ event_id: eventId, message: "sized", extra: { pad: "" } });
  return JSON.stringify({ event_id: eventId, message: "sized", extra: { pad: "x".repeat(bytes - base.length) } });
}

describe.each(DIALECTS)("ingest over HTTP on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: Server;
  let base: string;
  /** The runtime the server uses; a test may swap in one built from other settings. */
  let runtime: IngestRuntime;
  let main: IngestRuntime;
  let project: Project;
  let key: ProjectKey;
  let otherKey: ProjectKey;
  let disabledKey: ProjectKey;
  /** Requests the handler has not finished with. */
  let inFlight = 0;
  /** Event ids answered 200 by `stillServes`, checked in the events table at the end. */
  const served: string[] = [];
  const limits = envelopeLimits(parseSettings({}).ingest);

  /** Every runtime made, so that their buffered outcomes are written before the database closes. */
  const runtimes: IngestRuntime[] = [];
  function runtimeWith(env: Record<string, string>, queueDepth = 0): IngestRuntime {
    const rt = createIngestRuntime(ctx, parseSettings(env), queueDepth, { keyCacheMs: 0 });
    runtimes.push(rt);
    return rt;
  }
  async function using<T>(rt: IngestRuntime, work: () => Promise<T>): Promise<T> {
    runtime = rt;
    try {
      return await work();
    } finally {
      runtime = main;
    }
  }

  beforeAll(async () => {
    setLogLevel("warn"); // every rejection logs a line at info
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "http" } });
    ({ project, key } = await createProject({ ctx, input: { org: "http", slug: "web" } }));
    ({ key: otherKey } = await createProject({ ctx, input: { org: "http", slug: "other" } }));
    disabledKey = await createKey({ ctx, input: { project, label: "disabled" } });
    await setKeyActive({ ctx, input: { project, keyId: disabledKey.id, active: false } });
    main = runtime = runtimeWith({});
    server = createServer((req, res) => {
      const m = INGEST_PATH.exec((req.url ?? "/").split("?")[0] ?? "/");
      if (!m) return void res.writeHead(404).end();
      inFlight++;
      handleIngest(runtime, req, res, { projectId: Number(m[1]), endpoint: m[2] === "store" ? "store" : "envelope" })
        .catch((error: unknown) => {
          // As src/server/front.ts does.
          if (!res.headersSent) res.writeHead(500).end(String(error));
          else res.destroy();
        })
        .finally(() => inFlight--);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    for (const rt of runtimes) await rt.outcomes.flush();
    await store?.cleanup();
  });

  const envelopeUrl = (projectId = project.id, slash = "/") => `${base}/api/${projectId}/envelope${slash}`;
  const withKey = (url: string, publicKey = key.public_key) => `${url}?sentry_version=7&sentry_key=${publicKey}`;
  const post = (url: string, body: Body, headers: Record<string, string> = ENVELOPE) => send(url, { body, headers });
  const count = async (table: "ingest_queue" | "attachments" | "attachment_chunks") =>
    table === "ingest_queue"
      ? Number(
          (
            await store.queue
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        )
      : Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );

  async function digestAll(): Promise<void> {
    for (;;) if ((await digestBatch(ctx, { batchSize: 200, limits })) === 0) return;
  }

  async function storedIds(projectId: number, ids: string[]): Promise<string[]> {
    const rows = await store.db
      .selectFrom("events")
      .select("event_id")
      .where("project_id", "=", projectId)
      .where("event_id", "in", ids)
      .execute();
    return rows.map((r) => r.event_id).sort();
  }

  /** Digests the queue, then every id must be an event of the project. */
  async function expectStored(ids: string[], projectId = project.id): Promise<void> {
    await digestAll();
    expect(await storedIds(projectId, ids)).toEqual([...ids].sort());
  }

  function expectAccepted(reply: Reply, eventId: string | null): void {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers["access-control-allow-origin"]).toBe("*");
    expect(reply.headers["x-sentry-error"]).toBeUndefined();
    expect(JSON.parse(reply.text)).toEqual(eventId ? { id: eventId } : {});
  }

  /** A good envelope after a bad request: the server must still answer 200 and store it. */
  async function stillServes(): Promise<void> {
    const id = newEventId();
    expectAccepted(await post(withKey(envelopeUrl()), errorEnvelope(id, "after a rejection")), id);
    served.push(id);
  }

  async function expectRejected(reply: Reply, status: number, reason?: RegExp): Promise<void> {
    expect(reply.status, reply.text).toBe(status);
    expect(reply.headers["access-control-allow-origin"]).toBe("*");
    const error = reply.headers["x-sentry-error"];
    expect(typeof error === "string" && error.length > 0, "x-sentry-error is set").toBe(true);
    if (reason) expect(error).toMatch(reason);
    await stillServes();
  }

  describe("accepted envelopes", () => {
    const sentryAuth = () => `Sentry sentry_version=7, sentry_client=sentry.javascript.browser/11.1.0, sentry_key=${key.public_key}`;
    const cases: [string, (id: string) => Promise<Reply>][] = [
      ["the sentry_key query parameter", (id) => post(withKey(envelopeUrl()), errorEnvelope(id, "by query"))],
      ["X-Sentry-Auth", (id) => post(envelopeUrl(), errorEnvelope(id, "by x-sentry-auth"), { ...ENVELOPE, "x-sentry-auth": sentryAuth() })],
      [
        "Authorization: Sentry",
        (id) =>
          post(envelopeUrl(), errorEnvelope(id, "by authorization"), { ...ENVELOPE, authorization: `Sentry sentry_key=${key.public_key}` }),
      ],
      [
        "the envelope header's dsn alone",
        (id) => post(envelopeUrl(), errorEnvelope(id, "by dsn", { dsn: buildDsn(base, key.public_key, project.id) })),
      ],
      ["a path without the trailing slash", (id) => post(withKey(envelopeUrl(project.id, "")), errorEnvelope(id, "no slash"))],
      [
        "no content-type and a chunked body split mid-line",
        (id) => send(withKey(envelopeUrl()), { body: chunksOf(errorEnvelope(id, "chunked"), 7) }),
      ],
      [
        "content-type text/plain (browser SDKs avoid a preflight)",
        (id) => post(withKey(envelopeUrl()), errorEnvelope(id, "text"), { "content-type": "text/plain;charset=UTF-8" }),
      ],
      [
        "gzip, chunked",
        (id) =>
          post(withKey(envelopeUrl()), chunksOf(gzipSync(errorEnvelope(id, "gzip")), 64), { ...ENVELOPE, "content-encoding": "gzip" }),
      ],
      [
        "deflate",
        (id) => post(withKey(envelopeUrl()), deflateSync(errorEnvelope(id, "deflate")), { ...ENVELOPE, "content-encoding": "deflate" }),
      ],
      [
        "br, chunked",
        (id) =>
          post(withKey(envelopeUrl()), chunksOf(brotliCompressSync(errorEnvelope(id, "br")), 32), {
            ...ENVELOPE,
            "content-encoding": "br",
          }),
      ],
    ];

    it.each(cases)("answers 200 {id} and stores the event, authenticated or sent by %s", async (_name, request) => {
      const id = newEventId();
      expectAccepted(await request(id), id);
      await expectStored([id]);
    });

    it("answers 200 {} to an empty envelope `{}` and queues nothing", async () => {
      await digestAll();
      expectAccepted(await post(withKey(envelopeUrl()), Buffer.from("{}")), null);
      expectAccepted(await post(withKey(envelopeUrl()), Buffer.from("{}\n")), null);
      expect(await count("ingest_queue")).toBe(0);
    });

    it("answers 200 to an unknown item type, keeps it as a raw item and counts it", async () => {
      const { project: p, key: k } = await createProject({ ctx, input: { org: "http", slug: "unknown-type" } });
      const id = newEventId();
      const payload = Buffer.from('{"future":"item"}\nwith a newline inside');
      const body = buildEnvelope({ event_id: id }, [eventItem(id, "with a future item"), { type: "x_future_item", payload }]);
      expectAccepted(await post(withKey(envelopeUrl(p.id), k.public_key), body), id);
      await expectStored([id], p.id);
      const raw = await store.db.selectFrom("raw_items").select(["type", "event_id", "payload"]).where("project_id", "=", p.id).execute();
      expect(raw).toHaveLength(1);
      expect(raw[0]).toMatchObject({ type: "x_future_item", event_id: id });
      expect(Buffer.from(raw[0]!.payload).equals(payload)).toBe(true);
      const outcomes = await outcomesOf(store, p.id);
      expect(quantity(outcomes, "unknown", "accepted")).toBe(1);
      expect(quantity(outcomes, "error", "accepted")).toBe(1);
    });

    it("answers 200 to an envelope of exactly maxItemsCount (1000) items", async () => {
      expect(limits.maxItemsCount).toBe(1000);
      const id = newEventId();
      const log = JSON.stringify({ items: [{ timestamp: Date.now() / 1000, level: "info", body: "one log" }] });
      const items = [
        eventItem(id, "with 999 logs"),
        ...Array.from({ length: 999 }, () => ({ type: "log", payload: log, headers: { item_count: 1 } })),
      ];
      expectAccepted(await post(withKey(envelopeUrl()), buildEnvelope({ event_id: id }, items)), id);
      await expectStored([id]);
    });
  });

  describe("rejected envelopes", () => {
    const event = (id: string) => JSON.stringify({ event_id: id, message: "bad framing" });
    const cases: [string, number, RegExp, () => Promise<Reply>][] = [
      ["no authentication at all", 401, /missing authorization/, () => post(envelopeUrl(), errorEnvelope(newEventId(), "anonymous"))],
      [
        "two different keys (query and X-Sentry-Auth)",
        401,
        /multiple authorization/,
        () =>
          post(withKey(envelopeUrl()), errorEnvelope(newEventId(), "two keys"), {
            ...ENVELOPE,
            "x-sentry-auth": `Sentry sentry_key=${otherKey.public_key}`,
          }),
      ],
      [
        "an unknown key",
        401,
        /unknown public key/,
        () => post(withKey(envelopeUrl(), newEventId()), errorEnvelope(newEventId(), "unknown key")),
      ],
      [
        "a disabled key",
        403,
        /disabled/,
        () => post(withKey(envelopeUrl(), disabledKey.public_key), errorEnvelope(newEventId(), "disabled")),
      ],
      [
        "the key of another project",
        403,
        /does not belong/,
        () => post(withKey(envelopeUrl(), otherKey.public_key), errorEnvelope(newEventId(), "other")),
      ],
      [
        "an envelope dsn naming another project",
        400,
        /another project/,
        () =>
          post(envelopeUrl(), errorEnvelope(newEventId(), "dsn elsewhere", { dsn: buildDsn(base, key.public_key, otherKey.project_id) })),
      ],
      [
        "a truncated item (declared length longer than the rest)",
        400,
        /.+/,
        () => post(withKey(envelopeUrl()), buildEnvelope({}, [{ type: "event", payload: event(newEventId()), length: 500 }])),
      ],
      [
        "a declared length shorter than the payload (no newline where it ends)",
        400,
        /.+/,
        () => post(withKey(envelopeUrl()), buildEnvelope({}, [{ type: "event", payload: event(newEventId()), length: 5 }])),
      ],
      [
        "a non-JSON envelope header",
        400,
        /envelope header/,
        () => post(withKey(envelopeUrl()), Buffer.from(`not json\n{"type":"event"}\n{}\n`)),
      ],
      ["a non-JSON item header", 400, /item 1/, () => post(withKey(envelopeUrl()), Buffer.from(`{}\n{type: event}\n{}\n`))],
      ["an empty body", 400, /empty/, () => post(withKey(envelopeUrl()), Buffer.alloc(0))],
      [
        "an internal item type",
        400,
        /internal/,
        () => post(withKey(envelopeUrl()), buildEnvelope({}, [{ type: "integration", payload: "{}" }])),
      ],
      [
        "an unsupported content-encoding",
        415,
        /content-encoding/,
        () => post(withKey(envelopeUrl()), errorEnvelope(newEventId(), "lzw"), { ...ENVELOPE, "content-encoding": "compress" }),
      ],
      [
        "a body that is not the gzip it claims",
        400,
        /gzip/,
        () => post(withKey(envelopeUrl()), errorEnvelope(newEventId(), "plain"), { ...ENVELOPE, "content-encoding": "gzip" }),
      ],
      [
        "an event item one byte over TELLTALE_MAX_EVENT_BYTES (declared length)",
        413,
        /maxEventBytes/,
        () =>
          post(
            withKey(envelopeUrl()),
            buildEnvelope({}, [{ type: "event", payload: eventOfSize(newEventId(), limits.maxEventBytes + 1) }]),
          ),
      ],
      [
        "an event item one byte over TELLTALE_MAX_EVENT_BYTES (implicit length, chunked)",
        413,
        /maxEventBytes/,
        () =>
          post(
            withKey(envelopeUrl()),
            chunksOf(
              buildEnvelope({}, [{ type: "event", payload: eventOfSize(newEventId(), limits.maxEventBytes + 1), length: null }]),
              64 * 1024,
            ),
          ),
      ],
      [
        "10,000 items (maxItemsCount is 1000)",
        413,
        /maxItemsCount \(1000\)/,
        () =>
          post(
            withKey(envelopeUrl()),
            buildEnvelope(
              {},
              Array.from({ length: 10_000 }, () => ({ type: "log", payload: '{"items":[]}', headers: { item_count: 0 } })),
            ),
          ),
      ],
    ];

    it.each(cases)("answers %s with %i and an X-Sentry-Error, then still serves", async (_name, status, reason, request) => {
      const queued = await count("ingest_queue");
      await expectRejected(await request(), status, reason);
      // Only the good envelope of stillServes was queued.
      expect(await count("ingest_queue")).toBe(queued + 1);
    });

    it("honours TELLTALE_MAX_EVENT_BYTES exactly and counts the refused event as too_large", async () => {
      const rt = runtimeWith({ TELLTALE_MAX_EVENT_BYTES: "4096" });
      const fits = newEventId();
      const over = newEventId();
      const atLimit = buildEnvelope({ event_id: fits }, [{ type: "event", payload: eventOfSize(fits, 4096) }]);
      const overLimit = buildEnvelope({ event_id: over }, [{ type: "event", payload: eventOfSize(over, 4097) }]);
      expectAccepted(await using(rt, () => post(withKey(envelopeUrl()), atLimit)), fits);
      await expectRejected(await using(rt, () => post(withKey(envelopeUrl()), overLimit)), 413, /maxEventBytes \(4096 bytes\)/);
      await rt.outcomes.flush();
      expect(quantity(await outcomesOf(store, project.id), "error", "too_large")).toBeGreaterThanOrEqual(1);
      await expectStored([fits]);
      expect(await storedIds(project.id, [over])).toEqual([]);
    });

    it("answers 413 past TELLTALE_MAX_REQUEST_BYTES on the wire, declared or chunked", async () => {
      const rt = runtimeWith({ TELLTALE_MAX_REQUEST_BYTES: String(64 * 1024) });
      const big = buildEnvelope({}, [{ type: "x_blob", payload: Buffer.alloc(100 * 1024, 0x61) }]);
      await expectRejected(await using(rt, () => post(withKey(envelopeUrl()), big)), 413, /TELLTALE_MAX_REQUEST_BYTES/);
      await expectRejected(await using(rt, () => post(withKey(envelopeUrl()), chunksOf(big, 8 * 1024))), 413, /TELLTALE_MAX_REQUEST_BYTES/);
    });

    it("answers 413 past TELLTALE_MAX_REQUEST_BYTES on the wire to /store/ too, declared or chunked", async () => {
      const rt = runtimeWith({ TELLTALE_MAX_REQUEST_BYTES: String(64 * 1024) });
      const big = Buffer.from(JSON.stringify({ message: "a".repeat(100 * 1024) }));
      const storeUrl = `${base}/api/${project.id}/store/?sentry_key=${key.public_key}`;
      const headers = { "content-type": "application/json" };
      await expectRejected(await using(rt, () => send(storeUrl, { body: big, headers })), 413, /TELLTALE_MAX_REQUEST_BYTES/);
      await expectRejected(
        await using(rt, () => send(storeUrl, { body: chunksOf(big, 8 * 1024), headers })),
        413,
        /TELLTALE_MAX_REQUEST_BYTES/,
      );
    });

    it("answers a GET with 405, Allow and an X-Sentry-Error, then still serves", async () => {
      const reply = await send(withKey(envelopeUrl()), { method: "GET" });
      expect(reply.headers.allow).toMatch(/POST/);
      await expectRejected(reply, 405, /method GET/);
    });

    it("answers OPTIONS preflights with the CORS allow headers", async () => {
      const reply = await send(withKey(envelopeUrl()), {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type, x-sentry-auth",
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.headers["access-control-allow-origin"]).toBe("*");
      expect(reply.headers["access-control-allow-methods"]).toMatch(/POST/);
      const allowed = String(reply.headers["access-control-allow-headers"]).split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(["x-sentry-auth", "content-type", "content-encoding", "sentry-trace", "baggage"]));
      expect(String(reply.headers["access-control-expose-headers"])).toMatch(/x-sentry-rate-limits/);
      await stillServes();
    });
  });

  describe("a body that fails while nobody reads it", () => {
    // The body streams in while the request is authenticated (slow on a busy database), and
    // keeps arriving after an early answer; whatever goes wrong with it then must become an
    // answer or be dropped, never an uncaught error that ends the process.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    beforeAll(() => void process.on("uncaughtException", record));
    afterAll(() => void process.off("uncaughtException", record));
    beforeEach(() => void uncaught.splice(0));
    const uncaughtMessages = () => uncaught.map((e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    const slow = () => ({ ...runtimeWith({ TELLTALE_MAX_REQUEST_BYTES: String(64 * 1024) }), keys: new SlowKeyCache(ctx, 300) });

    it("answers 400 to a body that is not the gzip it claims, during a slow key lookup", async () => {
      const reply = await using(slow(), () =>
        post(withKey(envelopeUrl()), Buffer.from("not gzip at all"), { ...ENVELOPE, "content-encoding": "gzip" }),
      );
      expect(uncaughtMessages()).toEqual([]);
      await expectRejected(reply, 400, /gzip/);
    });

    it("answers 413 to a chunked body that passes TELLTALE_MAX_REQUEST_BYTES, during a slow key lookup", async () => {
      const big = buildEnvelope({}, [{ type: "x_blob", payload: Buffer.alloc(100 * 1024, 0x61) }]);
      const reply = await using(slow(), () => post(withKey(envelopeUrl()), chunksOf(big, 8 * 1024)));
      expect(uncaughtMessages()).toEqual([]);
      await expectRejected(reply, 413, /TELLTALE_MAX_REQUEST_BYTES/);
    });

    it("answers 401 to an unknown key sending a body that is not the gzip it claims (the body is never read)", async () => {
      const reply = await post(withKey(envelopeUrl(), newEventId()), Buffer.from("not gzip at all"), {
        ...ENVELOPE,
        "content-encoding": "gzip",
      });
      await new Promise((r) => setTimeout(r, 50)); // the rejected body's decoder runs after the answer
      expect(uncaughtMessages()).toEqual([]);
      await expectRejected(reply, 401, /unknown public key/);
    });

    const encodings: [string, Record<string, string>][] = [
      ["identity", {}],
      ["gzip", { "content-encoding": "gzip" }],
    ];

    it.each(encodings)("survives a client that hangs up after an early 401, mid-body (%s)", async (_name, encoding) => {
      const body = buildEnvelope({}, [{ type: "x_blob", payload: Buffer.alloc(2 * MiB, 0x61) }]);
      const payload = encoding["content-encoding"] ? gzipSync(body, { level: 0 }) : body;
      // send() stops producing and closes the connection once the answer is in.
      const reply = await post(withKey(envelopeUrl(), newEventId()), chunksOf(payload, 16 * 1024), { ...ENVELOPE, ...encoding });
      await waitFor(async () => inFlight === 0, 5000, "the handler to finish");
      await new Promise((r) => setTimeout(r, 50));
      expect(uncaughtMessages()).toEqual([]);
      await expectRejected(reply, 401, /unknown public key/);
    });

    it.each(encodings)("survives a client that disconnects mid-body during a slow key lookup (%s)", async (_name, encoding) => {
      await using(slow(), async () => {
        const req = request(withKey(envelopeUrl()), {
          method: "POST",
          agent: false,
          headers: { ...ENVELOPE, ...encoding, "transfer-encoding": "chunked" },
        });
        req.on("error", () => {}); // the test cuts it off
        req.write(
          encoding["content-encoding"]
            ? gzipSync('{}\n{"type":"event"}\n{"message":"cut').subarray(0, 20)
            : Buffer.from('{}\n{"type":"event"}\n{"message":"cut'),
        );
        await waitFor(async () => inFlight > 0, 5000, "the server to take the request");
        req.destroy();
        await waitFor(async () => inFlight === 0, 5000, "the handler to finish");
      });
      expect(uncaughtMessages()).toEqual([]);
      await stillServes();
    });
  });

  describe("decompression bombs", () => {
    /** A gzip body: the prefix as one member, then 300 MiB of zeros as another. */
    const bomb = async (prefix: string) => Buffer.concat([gzipSync(prefix), await gzippedZeros()]);
    const cases: [string, string, Record<string, string>, RegExp][] = [
      ["nothing but zeros (one endless header line)", "", {}, /maxHeaderBytes/],
      ["an event item of zeros", '{}\n{"type":"event"}\n', {}, /maxEventBytes/],
      [
        "an unknown item of zeros (held in memory up to TELLTALE_MAX_ITEMS_BYTES)",
        '{}\n{"type":"x_blob"}\n',
        {},
        /TELLTALE_MAX_ITEMS_BYTES/,
      ],
      [
        "an unknown item of zeros past TELLTALE_MAX_ENVELOPE_BYTES",
        '{}\n{"type":"x_blob"}\n',
        { TELLTALE_MAX_ENVELOPE_BYTES: String(8 * MiB) },
        /maxEnvelopeBytes/,
      ],
    ];

    it.each(cases)("answers 413 to 300 MiB of gzipped zeros in %s, with RSS bounded", async (_name, prefix, env, reason) => {
      const body = await bomb(prefix);
      expect(body.length).toBeLessThan(MiB);
      const rt = runtimeWith(env);
      const { result, growth } = await rssGrowthDuring(() =>
        using(rt, () => post(withKey(envelopeUrl()), chunksOf(body, 16 * 1024), { ...ENVELOPE, "content-encoding": "gzip" })),
      );
      await expectRejected(result, 413, reason);
      expect(growth).toBeLessThan(RSS_BOUND);
    });

    it("answers 413 to a gzip bomb sent to /store/, with RSS bounded", async () => {
      const { result, growth } = await rssGrowthDuring(async () =>
        send(`${base}/api/${project.id}/store/?sentry_key=${key.public_key}`, {
          body: chunksOf(Buffer.concat([gzipSync('{"message":"'), await gzippedZeros()]), 16 * 1024),
          headers: { "content-type": "application/json", "content-encoding": "gzip" },
        }),
      );
      await expectRejected(result, 413);
      expect(growth).toBeLessThan(RSS_BOUND);
    });
  });

  describe("attachments", () => {
    /**
     * Bytes the database took on while `work` ran, whatever it deleted again: on SQLite the main
     * file's new pages (its free pages given back first, so that every page written is a new one)
     * and its WAL (emptied first); on PostgreSQL the attachment tables.
     */
    async function databaseGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
      if (dialect === "postgres") {
        const size = async () =>
          Number(
            (
              await sql<{
                n: string;
              }>`select pg_total_relation_size('attachment_chunks') + pg_total_relation_size('attachments') as n`.execute(store.db)
            ).rows[0]!.n,
          );
        const before = await size();
        const result = await work();
        return { result, growth: (await size()) - before };
      }
      const wal = `${store.env.TELLTALE_DATA_DIR}/telltale.sqlite-wal`;
      const pragma = async (name: string) =>
        Number(Object.values((await sql.raw<Record<string, number>>(`pragma ${name}`).execute(store.db)).rows[0] ?? {})[0] ?? 0);
      await sql`pragma incremental_vacuum`.execute(store.db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
      const pageBytes = await pragma("page_size");
      const pages = await pragma("page_count");
      const result = await work();
      return { result, growth: ((await pragma("page_count")) - pages) * pageBytes + statSync(wal).size };
    }

    it("writes nothing to the database for an attachment bomb refused at its limit", async () => {
      // An 8 KiB random text block over and over: gzip packs it within its 32 KiB window, PostgreSQL's
      // TOAST compression (a 4 KiB window) cannot, so the bytes written show in the table's size.
      // Base64, so that no newline ends the length-less item early.
      const block = Buffer.from(randomBytes(6 * 1024).toString("base64"));
      const inflated = Buffer.concat([Buffer.from('{}\n{"type":"attachment","filename":"bomb.bin"}\n'), ...Array(5 * 1024).fill(block)]);
      const body = gzipSync(inflated);
      expect(body.length).toBeLessThan(MiB);
      const rt = runtimeWith({ TELLTALE_MAX_ATTACHMENT_BYTES: String(32 * MiB) });
      const { result, growth } = await databaseGrowthDuring(() =>
        using(rt, () => post(withKey(envelopeUrl()), chunksOf(body, 16 * 1024), { ...ENVELOPE, "content-encoding": "gzip" })),
      );
      await expectRejected(result, 413, /maxAttachmentBytes/);
      expect(growth).toBeLessThan(MiB);
    });

    it("streams a 50 MiB attachment to attachment chunks with RSS bounded", async () => {
      const size = 50 * MiB;
      const id = newEventId();
      const hash = createHash("sha256");
      const head = buildEnvelope({ event_id: id }, [eventItem(id, "with a big attachment")]);
      const attachmentHeader = JSON.stringify({
        type: "attachment",
        length: size,
        filename: "big.bin",
        content_type: "application/octet-stream",
      });
      async function* body(): AsyncGenerator<Buffer> {
        yield Buffer.concat([head, Buffer.from(`${attachmentHeader}\n`)]);
        for (let sent = 0; sent < size; sent += 64 * 1024) {
          const chunk = randomBytes(Math.min(64 * 1024, size - sent));
          hash.update(chunk);
          yield chunk;
        }
        yield Buffer.from("\n");
      }
      const { result, growth } = await rssGrowthDuring(() => post(withKey(envelopeUrl()), body()));
      expectAccepted(result, id);
      expect(growth).toBeLessThan(RSS_BOUND);

      const rows = await store.db
        .selectFrom("attachments")
        .selectAll()
        .where("project_id", "=", project.id)
        .where("event_id", "=", id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: "big.bin", size, complete: 1 });
      const chunks = await store.db
        .selectFrom("attachment_chunks")
        .select(["seq", sql<number>`length(data)`.as("bytes")])
        .where("attachment_id", "=", rows[0]!.id)
        .orderBy("seq")
        .execute();
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      expect(chunks.reduce((sum, c) => sum + Number(c.bytes), 0)).toBe(size);
      const stored = createHash("sha256");
      for (const c of chunks) {
        const row = await store.db
          .selectFrom("attachment_chunks")
          .select("data")
          .where("attachment_id", "=", rows[0]!.id)
          .where("seq", "=", c.seq)
          .executeTakeFirstOrThrow();
        stored.update(row.data);
      }
      expect(stored.digest("hex")).toBe(hash.digest("hex"));
      await expectStored([id]);
    });

    it("accepts an attachment whose filename and content type carry NUL, stored without it (was a 500 on PostgreSQL)", async () => {
      const id = newEventId();
      const body = buildEnvelope({ event_id: id }, [
        eventItem(id, "with a NUL in an attachment filename"),
        { type: "attachment", payload: "abc", headers: { filename: "crash\u0000.txt", content_type: "text/plain\u0000" } },
      ]);
      expectAccepted(await post(withKey(envelopeUrl()), body), id);
      await expectStored([id]);
      const rows = await store.db.selectFrom("attachments").select(["name", "content_type", "size"]).where("event_id", "=", id).execute();
      expect(rows).toEqual([{ name: "crash.txt", content_type: "text/plain", size: 3 }]);
    });

    it("stores an attachment's file name scrubbed by the event rules: no password or card number in it", async () => {
      const id = newEventId();
      const body = buildEnvelope({ event_id: id }, [
        eventItem(id, "with secrets in attachment file names"),
        { type: "attachment", payload: "a", headers: { filename: "dump password=hunter2.txt" } },
        { type: "attachment", payload: "b", headers: { filename: "receipt 4111 1111 1111 1111.pdf" } },
        { type: "attachment", payload: "c", headers: { filename: "screenshot.png" } },
      ]);
      expectAccepted(await post(withKey(envelopeUrl()), body), id);
      await expectStored([id]);
      const rows = await store.db.selectFrom("attachments").select("name").where("event_id", "=", id).orderBy("id").execute();
      const names = rows.map((r) => r.name);
      expect(names).toHaveLength(3);
      expect(names.join("\n")).not.toMatch(/hunter2|4111 1111 1111 1111/);
      expect(names[2]).toBe("screenshot.png");
    });

    it.each([
      ["implicit length, streamed past the limit", null],
      ["declared length over the limit", 3 * MiB],
    ])("answers 413 to an attachment over TELLTALE_MAX_ATTACHMENT_BYTES (%s) and leaves no attachment behind", async (_name, length) => {
      const rt = runtimeWith({ TELLTALE_MAX_ATTACHMENT_BYTES: String(2 * MiB) });
      const id = newEventId();
      const body = buildEnvelope({ event_id: id }, [
        eventItem(id, "with an oversized attachment"),
        { type: "attachment", payload: Buffer.alloc(3 * MiB, 0x61), length, headers: { filename: "too-big.bin" } },
      ]);
      const before = { attachments: await count("attachments"), chunks: await count("attachment_chunks") };
      await expectRejected(await using(rt, () => post(withKey(envelopeUrl()), chunksOf(body, 64 * 1024))), 413, /maxAttachmentBytes/);
      expect({ attachments: await count("attachments"), chunks: await count("attachment_chunks") }).toEqual(before);
      await digestAll();
      expect(await storedIds(project.id, [id])).toEqual([]);
    });
  });

  /** A new project whose quota takes one error a minute, and its envelope URL with the key. */
  async function oneErrorPerMinute(slug: string) {
    const { project: p, key: k } = await createProject({ ctx, input: { org: "http", slug } });
    await store.db
      .insertInto("project_quotas")
      .values({ project_id: p.id, category: "error", limit_count: 1, window_seconds: 60 })
      .execute();
    return { p, url: withKey(envelopeUrl(p.id), k.public_key) };
  }

  it("answers 429 with Retry-After and X-Sentry-Rate-Limits once a project's error quota is used, and still takes transactions and spans", async () => {
    const { p, url } = await oneErrorPerMinute("quota");
    const first = newEventId();
    const second = newEventId();
    const tx = newEventId();
    expectAccepted(await post(url, errorEnvelope(first, "within quota")), first);
    const limited = await post(url, errorEnvelope(second, "over quota"));
    expect(limited.status).toBe(429);
    expect(limited.headers["access-control-allow-origin"]).toBe("*");
    expect(limited.headers["x-sentry-error"]).toBeTruthy();
    const header = String(limited.headers["x-sentry-rate-limits"]);
    const m = /^(\d+):error:project:project_quota$/.exec(header);
    expect(m, `x-sentry-rate-limits: ${header}`).not.toBeNull();
    const retryAfter = Number(m![1]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(limited.headers["retry-after"])).toBe(retryAfter);

    expectAccepted(await post(url, transactionEnvelope(tx, "GET /within-quota")), tx);
    expectAccepted(await post(url, spanEnvelope("span within quota")), null);
    await expectStored([first], p.id);
    expect(await storedIds(p.id, [second])).toEqual([]);
    const txs = await store.db.selectFrom("transactions").select("name").where("project_id", "=", p.id).orderBy("name").execute();
    expect(txs.map((t) => t.name)).toEqual(["GET /within-quota", "span within quota"]);
    await main.outcomes.flush();
    expect(quantity(await outcomesOf(store, p.id), "error", "rate_limited", "project_quota")).toBe(1);
    await stillServes();
  });

  it("queues the body as received when every item is kept, and writes out only the kept items when one is dropped", async () => {
    const { p, url } = await oneErrorPerMinute("as-received");
    const newest = async () =>
      Buffer.from(
        (
          await store.queue
            .selectFrom("ingest_queue")
            .select("body")
            .where("project_id", "=", p.id)
            .orderBy("id", "desc")
            .limit(1)
            .executeTakeFirstOrThrow()
        ).body,
      );
    // Two items, the first of implicit length (no `length`: it ends at its newline), as SDKs may send.
    const both = (errorId: string, label: string) =>
      buildEnvelope({ event_id: errorId }, [
        { ...eventItem(errorId, `${label} error`), length: null },
        { type: "transaction", payload: transactionPayload(label) },
      ]);
    const first = newEventId();
    const sent = both(first, "kept");
    expectAccepted(await post(url, sent), first);
    expect((await newest()).equals(sent)).toBe(true);

    const second = newEventId();
    const limited = both(second, "limited");
    expectAccepted(await post(url, limited), second);
    const queued = await newest();
    expect(queued.equals(limited)).toBe(false);
    const items = parseEnvelope(queued).items;
    expect(items.map((i) => [i.header.type, i.header.raw.length])).toEqual([["transaction", items[0]!.payload.length]]);

    await expectStored([first], p.id);
    expect(await storedIds(p.id, [second])).toEqual([]);
    const txs = await store.db.selectFrom("transactions").select("name").where("project_id", "=", p.id).orderBy("name").execute();
    expect(txs.map((t) => t.name)).toEqual(["GET /kept", "GET /limited"]);
  });

  describe("/store/", () => {
    const storeUrl = () => `${base}/api/${project.id}/store/`;
    const auth = () => ({ "x-sentry-auth": `Sentry sentry_version=7, sentry_client=raven-python/6.10.0, sentry_key=${key.public_key}` });
    const json = (id: string, how: string) => JSON.stringify({ event_id: id, message: `store ${how}`, level: "error", platform: "python" });
    const cases: [string, (id: string) => Promise<Reply>][] = [
      [
        "plain JSON",
        (id) => send(storeUrl(), { body: Buffer.from(json(id, "json")), headers: { ...auth(), "content-type": "application/json" } }),
      ],
      [
        "base64",
        (id) =>
          send(storeUrl(), {
            body: Buffer.from(Buffer.from(json(id, "base64")).toString("base64")),
            headers: { ...auth(), "content-type": "application/octet-stream" },
          }),
      ],
      [
        "base64 of zlib",
        (id) =>
          send(storeUrl(), {
            body: Buffer.from(deflateSync(json(id, "zlib")).toString("base64")),
            headers: { ...auth(), "content-type": "application/octet-stream" },
          }),
      ],
      [
        "gzip-encoded JSON",
        (id) =>
          send(storeUrl(), {
            body: gzipSync(json(id, "gzip")),
            headers: { ...auth(), "content-type": "application/json", "content-encoding": "gzip" },
          }),
      ],
    ];

    it.each(cases)("accepts %s and stores the event", async (_name, request) => {
      const id = newEventId();
      expectAccepted(await request(id), id);
      await expectStored([id]);
    });

    it.each([
      ["gzip-encoded", { "content-encoding": "gzip" }, (text: string) => gzipSync(text)],
      ["plain", {}, (text: string) => Buffer.from(text)],
    ])("answers {id} to %s JSON without an event_id, and stores the event under that id", async (_name, headers, encode) => {
      const body = encode(JSON.stringify({ message: "store without an id", level: "error", platform: "python" }));
      const reply = await send(storeUrl(), { body, headers: { ...auth(), "content-type": "application/json", ...headers } });
      expect(reply.status, reply.text).toBe(200);
      const { id } = JSON.parse(reply.text) as { id?: unknown };
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      await expectStored([String(id)]);
    });

    it.each([
      ["invalid JSON", 400, Buffer.from('{"message": "cut off'), {}],
      ["a JSON array", 400, Buffer.from("[1, 2]"), {}],
      ["an unsupported content-encoding", 415, Buffer.from(json(newEventId(), "lzw")), { "content-encoding": "compress" }],
    ])("answers %s with %i", async (_name, status, body, headers) => {
      await expectRejected(
        await send(storeUrl(), { body, headers: { ...auth(), "content-type": "application/json", ...headers } }),
        status,
      );
    });
  });

  it("answers 503 with Retry-After while the digest queue is full (TELLTALE_MAX_QUEUE)", async () => {
    await digestAll();
    const queuedId = newEventId();
    expectAccepted(await post(withKey(envelopeUrl()), errorEnvelope(queuedId, "fills the queue")), queuedId);
    const depth = await count("ingest_queue");
    expect(depth).toBe(1);
    // As serve.ts does: the gauge starts at the rows already queued.
    const rt = runtimeWith({ TELLTALE_MAX_QUEUE: "1" }, depth);
    const refusedId = newEventId();
    const reply = await using(rt, () => post(withKey(envelopeUrl()), errorEnvelope(refusedId, "queue full")));
    expect(Number(reply.headers["retry-after"])).toBeGreaterThan(0);
    await expectRejected(reply, 503, /queue is full/);
    await expectStored([queuedId]);
    expect(await storedIds(project.id, [refusedId])).toEqual([]);
  });

  it("digested every envelope accepted after a rejection", async () => {
    expect(served.length).toBeGreaterThan(30);
    await expectStored(served);
  });
});
