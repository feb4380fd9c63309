import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import type { Project, ProjectKey } from "../../src/db/schema";
import { setLogLevel } from "../../src/server/log";
import { buildEnvelope, errorEnvelope, eventItem, newEventId, send } from "../support/envelopes";
import { raw, startFront, type RawReply, type TestFront } from "../support/front";
import { openTestStore, testCtx, type TestStore } from "../support/stores";
import { waitFor } from "../support/wait";

const MiB = 1024 * 1024;

/**
 * The front server's slow-client time-outs (src/server/client-timeouts.ts), with settings
 * small enough that each case ends in a second or two: headers within 500 ms, bodies at
 * 20 KB/s or more over 500 ms windows.
 */
const ENV = {
  TELLTALE_HEADERS_TIMEOUT_MS: "500",
  TELLTALE_IDLE_TIMEOUT_MS: "3000",
  TELLTALE_REQUEST_TIMEOUT_MS: "60000",
  TELLTALE_MIN_BODY_RATE: "20000",
  TELLTALE_BODY_RATE_WINDOW_MS: "500",
};
/** How long a cut-off may take here: a window or two past the limit, on a busy machine. */
const CUT_WITHIN_MS = 2500;

describe("slow clients against the front server", () => {
  let store: TestStore;
  let ctx: Ctx;
  let front: TestFront;
  let project: Project;
  let key: ProjectKey;
  const logs: string[] = [];

  beforeAll(async () => {
    store = await openTestStore("sqlite");
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "slow" } });
    ({ project, key } = await createProject({ ctx, input: { org: "slow", slug: "web" } }));
    front = await startFront(ctx, ENV);
    setLogLevel("info");
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      logs.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    setLogLevel("warn");
    await front?.close();
    await store?.cleanup();
  });

  const ingestPath = () => `/api/${project.id}/envelope/?sentry_key=${key.public_key}`;
  const head = (path: string, length: number) =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/x-sentry-envelope\r\nContent-Length: ${length}\r\n\r\n`;

  /** A request head sent one byte every 50 ms: it would take seconds to finish. */
  const headerTrickle = (path: string) => raw(front.port, [...head(path, 2)], { gapMs: 50, waitMs: 10_000 });
  /** A complete head, then a body of 1 MB at 10 bytes every 50 ms (200 B/s). */
  const bodyTrickle = (path: string) =>
    raw(front.port, [head(path, MiB), ...Array.from({ length: 400 }, () => Buffer.alloc(10, 0x20))], { gapMs: 50, waitMs: 10_000 });

  function expectCutOff(reply: RawReply, status: number): void {
    expect(reply.status, reply.text).toBe(status);
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(CUT_WITHIN_MS);
  }

  async function stillServes(): Promise<void> {
    const id = newEventId();
    const reply = await send(`${front.base}${ingestPath()}`, {
      body: errorEnvelope(id, "a normal client"),
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status, reply.text).toBe(200);
  }

  it("cuts off a client trickling its headers with 408", async () => {
    expectCutOff(await headerTrickle(ingestPath()), 408);
    expect(logs.join("")).toMatch(/client request refused status=408/);
    await stillServes();
  });

  it("closes a connection that sends nothing at all", async () => {
    const reply = await raw(front.port, [], { waitMs: 10_000 });
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(CUT_WITHIN_MS);
  });

  it.each([
    ["ingest", () => ingestPath()],
    ["a proxied page or API request", () => "/api/0/projects/"],
    ["the tunnel", () => "/api/telltale/tunnel/"],
  ])("cuts off a body trickled to %s with 408 and a log line", async (_name, path) => {
    const reply = await bodyTrickle(path());
    expectCutOff(reply, 408);
    expect(reply.text).toMatch(/TELLTALE_MIN_BODY_RATE/);
    expect(logs.join("")).toMatch(/request body too slow/);
    await stillServes();
  });

  it("takes a slow but steady body above the minimum rate (40 KB/s for 1.5 s to a page)", async () => {
    const chunks = Array.from({ length: 30 }, () => Buffer.alloc(2000, 0x61));
    const reply = await raw(front.port, [head("/settings", 60_000), ...chunks], { gapMs: 50, waitMs: 10_000 });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toMatch(/page 60000/);
  });

  it("takes a 100 MB attachment streamed at loopback speed, through the database's back-pressure", async () => {
    const size = 100_000_000; // within TELLTALE_MAX_REQUEST_BYTES (100 MiB) with the envelope around it
    const id = newEventId();
    const start = buildEnvelope({ event_id: id }, [eventItem(id, "with 100 MiB")]);
    const itemHeader = Buffer.from(`${JSON.stringify({ type: "attachment", length: size, filename: "big.bin" })}\n`);
    async function* body(): AsyncGenerator<Buffer> {
      yield Buffer.concat([start, itemHeader]);
      const block = Buffer.alloc(256 * 1024, 0x61);
      for (let sent = 0; sent < size; sent += block.length) yield block.subarray(0, Math.min(block.length, size - sent));
      yield Buffer.from("\n");
    }
    const started = Date.now();
    const reply = await send(`${front.base}${ingestPath()}`, {
      body: body(),
      headers: { "content-type": "application/x-sentry-envelope" },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text)).toEqual({ id });
    const rows = await store.db.selectFrom("attachments").select(["size", "complete"]).where("event_id", "=", id).execute();
    expect(rows).toEqual([{ size, complete: 1 }]);
    logs.push(`100 MB upload took ${Date.now() - started} ms\n`);
  }, 120_000);

  it("keeps answering other clients while 20 slow clients hang, then cuts every one off", async () => {
    // Longer limits here, so the slow clients are still connected while the others are served.
    const patient = await startFront(ctx, { ...ENV, TELLTALE_HEADERS_TIMEOUT_MS: "2000", TELLTALE_BODY_RATE_WINDOW_MS: "2000" });
    try {
      const trickle = (i: number) =>
        i % 2
          ? raw(patient.port, [...head(ingestPath(), 2)], { gapMs: 50, waitMs: 10_000 })
          : raw(
              patient.port,
              [head(i % 4 ? "/settings" : ingestPath(), MiB), ...Array.from({ length: 200 }, () => Buffer.alloc(10, 0x20))],
              { gapMs: 50, waitMs: 10_000 },
            );
      const slow = Array.from({ length: 20 }, (_, i) => trickle(i));
      let cut = 0;
      for (const reply of slow) void reply.then(() => cut++);
      await waitFor(async () => (await patient.connections()) === slow.length, 15_000, "every slow client to be connected");
      for (let i = 0; i < 10; i++) {
        const id = newEventId();
        const reply = await send(`${patient.base}${ingestPath()}`, {
          body: errorEnvelope(id, "served meanwhile"),
          headers: { "content-type": "application/x-sentry-envelope" },
        });
        expect(reply.status, reply.text).toBe(200);
      }
      expect((await send(`${patient.base}/settings`, { method: "GET" })).status).toBe(200);
      expect(cut, "slow clients still hanging while the others were served").toBe(0);
      for (const reply of await Promise.all(slow)) {
        expect(reply.status, reply.text).toBe(408);
        expect(reply.closed).toBe(true);
        expect(reply.ms).toBeLessThan(5000);
      }
    } finally {
      await patient.close();
    }
  });
});
