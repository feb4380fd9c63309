import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { compress as zstdCompress } from "zstd-napi";
import { defaultStackParser, makeNodeTransport, NodeClient } from "@sentry/node";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { waitFor } from "../../../test/support/wait";
import { noise, zstdStreamed } from "../../../test/support/zstd-frames";
import { parseSettings } from "../../config/settings";
import { buildDsn } from "../../core/auth/dsn";
import type { Ctx } from "../../core/context";
import { createOrganization } from "../../core/orgs/create-org";
import { createProject } from "../../core/projects/create-project";
import type { Project, ProjectKey } from "../../db/schema";
import { setLogLevel } from "../log";
import { headerSafe } from "../http";
import type { IngestRuntime } from "../../core/ingest/accept";
import { STORAGE_FULL_RETRY_AFTER_SECONDS, storageFullNotice } from "../../core/ingest/storage-full";
import { storageFullState } from "../storage-alarm";
import { handleIngest } from "./handler";
import { createIngestRuntime } from "./ingest-runtime";

const INGEST_PATH = /^\/api\/(\d+)\/(envelope|store)\/?$/;
const MiB = 1024 * 1024;
/** Decompressed bytes one envelope may have here; the default (Relay's 200 MiB) makes too big a bomb for a unit test. */
const MAX_ENVELOPE_BYTES = 10 * MiB;
const EVENT_ID = "9ec79c33ec9942ab8353589fcb2e04dc";

const EVENT = JSON.stringify({ event_id: EVENT_ID, message: "hello from the test", platform: "javascript" });

function envelope(header: Record<string, unknown>): Buffer {
  return Buffer.from(`${JSON.stringify(header)}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(EVENT) })}\n${EVENT}\n`);
}

describe("headerSafe", () => {
  it("keeps printable ASCII as it is", () => {
    expect(headerSafe("unknown public key")).toBe("unknown public key");
  });

  it("replaces characters outside printable ASCII, CR and LF included", () => {
    expect(headerSafe("type '\u4e8b\u{1f4a5}'\r\nx-injected: 1\u00e9")).toBe("type '???'??x-injected: 1?");
  });

  it("caps the text at 200 characters", () => {
    expect(headerSafe("a".repeat(500))).toBe(`${"a".repeat(197)}...`);
  });
});

describe.each(DIALECTS)("handleIngest on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let server: Server;
  let base: string;
  let project: Project;
  let key: ProjectKey;
  let otherKey: ProjectKey;
  let disabledKey: ProjectKey;
  let runtime: IngestRuntime;

  beforeAll(async () => {
    setLogLevel("warn"); // every rejection logs a line at info
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "acme" } });
    ({ project, key } = await createProject({ ctx, input: { org: "acme", slug: "web" } }));
    ({ key: otherKey } = await createProject({ ctx, input: { org: "acme", slug: "other" } }));
    ({ key: disabledKey } = await createProject({ ctx, input: { org: "acme", slug: "disabled" } }));
    await store.db.updateTable("project_keys").set({ is_active: 0 }).where("id", "=", disabledKey.id).execute();

    const settings = parseSettings({ TELLTALE_MAX_ENVELOPE_BYTES: String(MAX_ENVELOPE_BYTES) });
    runtime = createIngestRuntime(ctx, settings, 0, { keyCacheMs: 0 });
    // The route as the front server (src/server/front.ts) derives it from the path.
    server = createServer((req, res) => {
      const m = INGEST_PATH.exec((req.url ?? "/").split("?")[0] ?? "/");
      if (!m) return void res.writeHead(404).end();
      handleIngest(runtime, req, res, { projectId: Number(m[1]), endpoint: m[2] === "store" ? "store" : "envelope" }).catch(
        (error: unknown) => {
          res.writeHead(500).end(String(error));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.cleanup();
  });

  const envelopeUrl = (projectId: number, publicKey?: string) =>
    `${base}/api/${projectId}/envelope/${publicKey ? `?sentry_version=7&sentry_key=${publicKey}` : ""}`;
  const post = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", body: new Uint8Array(body), headers: { "content-type": "application/x-sentry-envelope", ...headers } });
  const queued = () => store.queue.selectFrom("ingest_queue").selectAll().orderBy("id").execute();
  /** The newest queued envelope: its row, its header and its text. */
  async function lastQueued() {
    const row = (await queued()).at(-1);
    expect(row).toBeDefined();
    const text = Buffer.from(row!.body).toString("utf8");
    return { row: row!, header: JSON.parse(text.split("\n")[0]!) as Record<string, unknown>, text };
  }

  async function expectRejected(response: Response, status: number, reason: string | RegExp) {
    expect(response.status).toBe(status);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const error = response.headers.get("x-sentry-error");
    expect(error).toMatch(typeof reason === "string" ? new RegExp(`^${reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : reason);
    expect(await response.json()).toEqual({ detail: error });
  }

  it("stores an envelope authenticated by sentry_key in the query and answers its event id", async () => {
    const before = (await queued()).length;
    const body = envelope({ event_id: EVENT_ID, sent_at: new Date().toISOString() });
    const response = await post(envelopeUrl(project.id, key.public_key), body);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({ id: EVENT_ID });
    expect(await queued()).toHaveLength(before + 1);
    const stored = await lastQueued();
    expect(stored.row).toMatchObject({ project_id: project.id, endpoint: "envelope" });
    expect(stored.header).toMatchObject({ event_id: EVENT_ID });
    expect(stored.text).toContain(EVENT);
  });

  it("records which key accepted a queued envelope", async () => {
    expect((await post(envelopeUrl(project.id, key.public_key), envelope({ event_id: EVENT_ID }))).status).toBe(200);
    expect((await lastQueued()).row.key_id).toBe(key.id);
  });

  it("authenticates by the DSN in the envelope header", async () => {
    const dsn = buildDsn("http://telltale.test:8000", key.public_key, project.id);
    const response = await post(envelopeUrl(project.id), envelope({ event_id: EVENT_ID, dsn }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: EVENT_ID });
  });

  it("authenticates by the X-Sentry-Auth header", async () => {
    const response = await post(envelopeUrl(project.id), envelope({}), {
      "x-sentry-auth": `Sentry sentry_version=7, sentry_key=${key.public_key}`,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it("stores a /store/ event and answers its id", async () => {
    const response = await post(
      `${base}/api/${project.id}/store/?sentry_key=${key.public_key}`,
      Buffer.from(JSON.stringify({ event_id: EVENT_ID.toUpperCase() })),
      {
        "content-type": "application/json",
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: EVENT_ID });
    // A /store/ event is queued as the one-item envelope it stands for.
    const stored = await lastQueued();
    expect(stored.row.project_id).toBe(project.id);
    expect(stored.header).toMatchObject({ event_id: EVENT_ID });
    expect(stored.text).toContain(`"event_id":"${EVENT_ID.toUpperCase()}"`);
  });

  it.each([
    ["gzip", gzipSync, "a".repeat(32)],
    ["deflate", deflateSync, "b".repeat(32)],
    ["br", brotliCompressSync, "c".repeat(32)],
    ["zstd", zstdCompress, "d".repeat(32)],
  ])("accepts a %s-compressed envelope and stores it decompressed", async (encoding, compress, eventId) => {
    const response = await post(envelopeUrl(project.id, key.public_key), compress(envelope({ event_id: eventId })), {
      "content-encoding": encoding,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: eventId });
    const stored = await lastQueued();
    expect(stored.header).toMatchObject({ event_id: eventId });
    expect(stored.text).toContain(EVENT);
  });

  it("accepts an envelope sent by @sentry/node", async () => {
    const client = new NodeClient({
      dsn: buildDsn(base, key.public_key, project.id),
      transport: makeNodeTransport,
      stackParser: defaultStackParser,
      integrations: [],
    });
    const eventId = client.captureException(new Error("thrown in the ingest test"));
    expect(await client.flush(5000)).toBe(true);
    const stored = await lastQueued();
    expect(stored.row).toMatchObject({ project_id: project.id, endpoint: "envelope" });
    expect(stored.header).toMatchObject({ event_id: eventId });
    expect(stored.text).toContain("thrown in the ingest test");
  });

  describe("rejections (nothing is stored)", () => {
    let before: number;
    beforeEach(async () => {
      before = (await queued()).length;
    });
    afterEach(async () => {
      expect(await queued()).toHaveLength(before);
    });

    it("answers 401 for an unknown key", async () => {
      await expectRejected(await post(envelopeUrl(project.id, "0".repeat(32)), envelope({})), 401, "unknown public key");
    });

    it("answers 401 without any key", async () => {
      await expectRejected(await post(envelopeUrl(project.id), envelope({})), 401, "missing authorization information");
    });

    it("answers 401 for differing keys in the query and the envelope header", async () => {
      const dsn = buildDsn(base, otherKey.public_key, project.id);
      await expectRejected(
        await post(envelopeUrl(project.id, key.public_key), envelope({ dsn })),
        401,
        "multiple authorization payloads detected",
      );
    });

    it("answers 403 for a disabled key", async () => {
      await expectRejected(
        await post(envelopeUrl(disabledKey.project_id, disabledKey.public_key), envelope({})),
        403,
        "the public key is disabled",
      );
    });

    it("answers 403 for the key of another project", async () => {
      await expectRejected(
        await post(envelopeUrl(project.id, otherKey.public_key), envelope({})),
        403,
        "the public key does not belong to this project",
      );
    });

    it("answers 400 when the envelope header's DSN names another project than the URL", async () => {
      const dsn = buildDsn(base, key.public_key, otherKey.project_id);
      await expectRejected(
        await post(envelopeUrl(project.id), envelope({ dsn })),
        400,
        "the DSN in the envelope header names another project than the URL",
      );
    });

    it.each([
      ["not JSON", "this is not json\n{}\n"],
      ["a JSON array", "[1,2,3]\n{}\n"],
    ])("answers 400 for an envelope header that is %s", async (_what, body) => {
      await expectRejected(
        await post(envelopeUrl(project.id, key.public_key), Buffer.from(body)),
        400,
        /^the envelope header \(first line\) is /,
      );
    });

    it("answers 400 for a /store/ body that is not a JSON object", async () => {
      await expectRejected(
        await post(`${base}/api/${project.id}/store/?sentry_key=${key.public_key}`, Buffer.from("[]")),
        400,
        /^invalid event: the body must be a JSON object/,
      );
    });

    it.each([
      ["50 MiB of zeros", Buffer.alloc(50 * MiB)],
      [
        "an envelope whose item inflates past the envelope limit",
        Buffer.concat([Buffer.from('{}\n{"type":"future_item"}\n'), Buffer.alloc(50 * MiB, 0x20)]),
      ],
    ])("answers 413 for a gzip bomb of %s and keeps serving", async (_what, inflated) => {
      const bomb = gzipSync(inflated);
      expect(bomb.length).toBeLessThan(MiB);
      const response = await post(envelopeUrl(project.id, key.public_key), bomb, { "content-encoding": "gzip" });
      expect(response.status).toBe(413);
      expect(response.headers.get("x-sentry-error")).toBeTruthy();
      await response.arrayBuffer();
      // The server still reads and judges the next request.
      await expectRejected(
        await post(envelopeUrl(project.id, "0".repeat(32)), gzipSync(envelope({})), { "content-encoding": "gzip" }),
        401,
        "unknown public key",
      );
    });

    it("answers 503 to a slow zstd envelope whose window the ingest memory budget cannot hold, and gives the memory back", async () => {
      // Room for one 8 MiB zstd window and its blocks, not two.
      const tight = createIngestRuntime(ctx, parseSettings({ TELLTALE_INGEST_MEMORY_BYTES: String(12 * MiB) }), 0, { keyCacheMs: 0 });
      const small = createServer((req, res) => void handleIngest(tight, req, res, { projectId: project.id, endpoint: "envelope" }));
      await new Promise<void>((resolve) => small.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(small.address() as AddressInfo).port}/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
      const item = noise(200 * 1024);
      const body = zstdStreamed(Buffer.concat([Buffer.from(`{}\n{"type":"attachment","length":${item.length}}\n`), item]), 23);
      // Past the bytes read whole, and the rest never sent: the decoder waits holding its window.
      const slow = request(url, { method: "POST", headers: { "content-encoding": "zstd" } });
      slow.on("error", () => {});
      slow.write(body.subarray(0, 80 * 1024));
      try {
        await waitFor(async () => tight.memory.inUse >= 8 * MiB, 5000, "the slow body's window held");
        await expectRejected(
          await post(url, body, { "content-encoding": "zstd" }),
          503,
          "the server is at its ingest memory limit; retry later",
        );
      } finally {
        slow.destroy();
        await new Promise<void>((resolve) => small.close(() => resolve()));
      }
      await waitFor(async () => tight.memory.inUse === 0, 5000, "the window given back");
    });

    it("answers 415 for an unknown content-encoding", async () => {
      await expectRejected(
        await post(envelopeUrl(project.id, key.public_key), envelope({}), { "content-encoding": "compress" }),
        415,
        "unsupported content-encoding 'compress'",
      );
    });

    it("answers 400 for an item header outside Latin-1, with the reason whole in the body and printable ASCII in X-Sentry-Error", async () => {
      const body = Buffer.from('{}\n{"type":"event","length":"\u{1f4a5}"}\n{}\n');
      const response = await post(envelopeUrl(project.id, key.public_key), body);
      expect(response.status).toBe(400);
      const header = response.headers.get("x-sentry-error") ?? "";
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      const { detail } = (await response.json()) as { detail: string };
      expect(detail).toContain("\u{1f4a5}");
      expect(header).toBe(headerSafe(detail));
    });

    it("answers 400 for a body that is not the br it claims", async () => {
      await expectRejected(
        await post(envelopeUrl(project.id, key.public_key), envelope({}), { "content-encoding": "br" }),
        400,
        /^invalid br body: /,
      );
    });

    it("answers 400 for an invalid gzip body", async () => {
      await expectRejected(
        await post(envelopeUrl(project.id, key.public_key), envelope({}), { "content-encoding": "gzip" }),
        400,
        /^invalid gzip body: /,
      );
    });

    it("refuses a GET with 405 and names the allowed methods", async () => {
      const res = await fetch(envelopeUrl(project.id, key.public_key));
      expect(res.headers.get("allow")).toBe("POST, OPTIONS");
      await expectRejected(res, 405, "method GET not allowed; SDKs POST here");
    });
  });

  describe("a full disk", () => {
    /** Makes the queue's storage refuse writes for lack of space: really on SQLite, by the driver's error on PostgreSQL. */
    async function fillDisk(): Promise<() => Promise<void>> {
      if (dialect === "sqlite") {
        const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(store.queue);
        await sql.raw(`pragma max_page_count = ${Number(rows[0]!.page_count)}`).execute(store.queue);
        return async () => void (await sql`pragma max_page_count = 1073741823`.execute(store.queue));
      }
      const full = vi
        .spyOn(runtime.enqueue, "add")
        .mockRejectedValue(Object.assign(new Error("could not extend file: No space left on device"), { code: "53100" }));
      return async () => void full.mockRestore();
    }
    // Larger than any free page the queue file has, so that SQLite must grow it.
    const big = () => {
      const event = JSON.stringify({ message: "x".repeat(300_000) });
      return Buffer.from(`{}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(event) })}\n${event}\n`);
    };

    it("answers 503 with Retry-After, logs once per interval, tells administrators, and loses nothing acknowledged", async () => {
      expect((await post(envelopeUrl(project.id, key.public_key), big())).status).toBe(200);
      const acknowledged = (await queued()).map((r) => r.id);
      const restore = await fillDisk();
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        const answers = await Promise.all(Array.from({ length: 6 }, () => post(envelopeUrl(project.id, key.public_key), big())));
        for (const response of answers) {
          expect(response.status).toBe(503);
          expect(response.headers.get("retry-after")).toBe(String(STORAGE_FULL_RETRY_AFTER_SECONDS));
          expect(response.headers.get("x-sentry-error")).toBe("the server's storage is full; retry later");
        }
        const lines = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("storage is full"));
        expect(lines).toHaveLength(1);
        expect(stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes("ingest rejected"))).toEqual([]);
        const state = storageFullState();
        expect(state).toMatchObject({ refused: 1 });
        expect(storageFullNotice(state, ctx.now())).toMatch(/storage is full/);
      } finally {
        stderr.mockRestore();
        await restore();
      }
      expect((await queued()).map((r) => r.id)).toEqual(acknowledged);
      expect((await post(envelopeUrl(project.id, key.public_key), big())).status).toBe(200);
      expect(storageFullState()).toBeNull();
      expect((await queued()).map((r) => r.id).slice(0, -1)).toEqual(acknowledged);
    });
  });

  it("answers a CORS preflight so browser SDKs may post from any origin", async () => {
    const response = await fetch(envelopeUrl(project.id), {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    const allowed = response.headers.get("access-control-allow-headers")?.split(/,\s*/) ?? [];
    expect(allowed).toEqual(expect.arrayContaining(["x-sentry-auth", "content-type", "content-encoding"]));
    expect(response.headers.get("access-control-expose-headers")).toContain("x-sentry-error");
  });
});
