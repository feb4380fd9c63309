import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { acceptEnvelope } from "../../src/core/ingest/accept";
import { QueueBusyError, QueueWriter, type QueueRow } from "../../src/core/ingest/queue-writer";
import { parseSettings } from "../../src/config/settings";
import { connect } from "../../src/db/connect";
import { KyselyIngestQueue } from "../../src/db/ingest-queue";
import { createIngestRuntime } from "../../src/server/ingest/ingest-runtime";
import { checkpointQueue, queueFileOf } from "../../src/db/queue";
import { openDigestBench, type DigestBench } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";
import { waitFor } from "../support/wait";

/**
 * Decision 0005: on SQLite the request path is the queue file's only writer. The digest reads
 * the file and checkpoints its WAL, and leaves digested rows for the request path to delete;
 * a write from the digest's thread makes the request path's inserts wait (an idle digest's
 * vacuum and checkpoint held ingest up for 7–30 s after a backlog drained, docs/benchmarks.md).
 * `PRAGMA data_version` on a connection of its own changes when any other
 * connection commits to the file, so it sees every write, whoever made it.
 */
describe("the queue file on SQLite", () => {
  let bench: DigestBench;
  let observer: SQLite.Database;
  const version = () => Number(observer.pragma("data_version", { simple: true }));
  const queued = async () => (await bench.store.queue.selectFrom("ingest_queue").select("id").orderBy("id").execute()).map((r) => r.id);

  beforeAll(async () => {
    bench = await openDigestBench("sqlite");
    const dir = bench.store.env.TELLTALE_DATA_DIR!;
    observer = new SQLite(queueFileOf(join(dir, "telltale.sqlite")), { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    observer.close();
    await bench.store.cleanup();
  });

  it("is written by the request path only: digesting a backlog and checkpointing commit nothing to it", async () => {
    const writer = new QueueWriter(new KyselyIngestQueue(bench.store.queue, "sqlite"));
    const count = 60;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        writer.add({
          project_id: bench.projectId,
          key_id: 0,
          endpoint: "envelope",
          received_at: Date.now(),
          body: errorEnvelope(newEventId(), `queued error ${i}`),
        }),
      ),
    );
    const ids = await queued();
    expect(ids).toHaveLength(count);
    const before = version();

    // The digest thread's loop (src/server/digest-worker.ts): batches with the production options, a checkpoint after each.
    const options = { batchSize: 25, limits: DEFAULT_ENVELOPE_LIMITS, leaveDigestedRows: true };
    let taken = 0;
    for (let n = await digestBatch(bench.ctx, options); n > 0; n = await digestBatch(bench.ctx, options)) {
      taken += n;
      await checkpointQueue(bench.store.queue);
    }
    await checkpointQueue(bench.store.queue);
    expect(taken).toBe(count);
    const stored = await bench.store.db
      .selectFrom("events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(count);
    expect(version()).toBe(before);
    expect(await queued()).toEqual(ids);

    // The request path deletes the digested rows (the digest thread tells it how far it got): that is a write the observer sees.
    writer.forget(ids[ids.length - 1]!);
    await waitFor(async () => (await queued()).length === 0, 15_000, "the digested rows to be deleted");
    expect(version()).not.toBe(before);
  });

  /**
   * The digest's RESTART checkpoint holds the file's write lock while it copies and syncs (0.4–0.8 s
   * under full load, docs/benchmarks.md). The request thread must neither sleep in
   * SQLite's busy handler meanwhile — that stops its event loop, every request and page with it —
   * nor fail the group: it waits on timers and writes once the lock is free.
   */
  describe("while another connection holds its write lock", () => {
    const row = (message: string): QueueRow => ({
      project_id: bench.projectId,
      key_id: 0,
      endpoint: "envelope",
      received_at: Date.now(),
      body: errorEnvelope(newEventId(), message),
    });
    const requestThread = () =>
      connect(
        { kind: "sqlite", file: join(bench.store.env.TELLTALE_DATA_DIR!, "telltale.sqlite") },
        { checkpoints: false, queueWriter: true },
      );
    const holdLock = () => {
      const holder = new SQLite(queueFileOf(join(bench.store.env.TELLTALE_DATA_DIR!, "telltale.sqlite")));
      holder.pragma("busy_timeout = 5000");
      holder.exec("BEGIN IMMEDIATE");
      return holder;
    };

    it("keeps the event loop turning and writes the group once the lock is let go", async () => {
      const store = requestThread();
      const holder = holdLock();
      try {
        const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect));
        let settled = false;
        const written = Promise.all([writer.add(row("held 1")), writer.add(row("held 2"))]).then(() => (settled = true));
        // Timers fire while the group waits: with a busy timeout the thread would be stuck in SQLite.
        const ticks: number[] = [];
        for (let i = 0; i < 10; i++) {
          const started = performance.now();
          await new Promise((r) => setTimeout(r, 20));
          ticks.push(performance.now() - started);
        }
        expect(settled).toBe(false);
        expect(Math.max(...ticks)).toBeLessThan(1000);
        holder.exec("COMMIT");
        await written;
        const bodies = await store.queue.selectFrom("ingest_queue").select("body").orderBy("id", "desc").limit(2).execute();
        expect(bodies.map((b) => b.body.toString()).join("\n")).toMatch(/held 1[^]*held 2|held 2[^]*held 1/);
      } finally {
        if (holder.inTransaction) holder.exec("ROLLBACK");
        holder.close();
        await store.close();
      }
    });

    it("gives freed pages back once the lock is let go, with no write to wake it", async () => {
      const store = requestThread();
      try {
        const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect), true, 1, 100);
        const big = { ...row("big"), body: Buffer.alloc(256 * 1024, 0x61) };
        await Promise.all(Array.from({ length: 8 }, () => writer.add(big)));
        const free = async () =>
          Number((await sql<{ freelist_count: number }>`pragma freelist_count`.execute(store.queue)).rows[0]!.freelist_count);
        const last = await store.queue.selectFrom("ingest_queue").select("id").orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
        writer.forget(last.id);
        await writer.add(row("deletes the big ones"));
        // The give-back starts 100 ms after that write; meanwhile another connection takes the lock.
        const holder = holdLock();
        try {
          expect(await free()).toBeGreaterThan(0);
          await new Promise((r) => setTimeout(r, 400));
          expect(await free()).toBeGreaterThan(0);
        } finally {
          if (holder.inTransaction) holder.exec("ROLLBACK");
          holder.close();
        }
        await waitFor(async () => (await free()) === 0, 15_000, "every freed page to be given back");
      } finally {
        await store.close();
      }
    });

    it("keeps no copy of a digested envelope: its pages are zeroed at once, its WAL frames gone once idle", async () => {
      const store = requestThread();
      const file = queueFileOf(join(bench.store.env.TELLTALE_DATA_DIR!, "telltale.sqlite"));
      const secret = `sk_live_${newEventId()}`;
      const holds = (path: string) => existsSync(path) && readFileSync(path).includes(secret);
      try {
        // Idle long after the first writes: no give-back runs until the test waits for one.
        const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect), true, 1, 300);
        await writer.add({ ...row("secret"), body: Buffer.from(`"api_key": "${secret}"\n`.repeat(2000)) });
        await checkpointQueue(bench.store.queue);
        expect(holds(file)).toBe(true);
        const last = await store.queue.selectFrom("ingest_queue").select("id").orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
        writer.forget(last.id);
        await writer.add(row("deletes the secret"));
        await checkpointQueue(bench.store.queue);
        expect(holds(file)).toBe(false);
        await waitFor(async () => !holds(`${file}-wal`), 5000, "the WAL emptied once the writer was idle");
        expect(statSync(`${file}-wal`).size).toBe(0);
      } finally {
        await store.close();
      }
    });

    it("fails the whole group with QueueBusyError once the lock is held past the limit, and answers such requests 503", async () => {
      const store = requestThread();
      const holder = holdLock();
      try {
        const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect), true, 1, undefined, 200);
        const results = await Promise.allSettled([writer.add(row("late 1")), writer.add(row("late 2")), writer.add(row("late 3"))]);
        expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
        for (const r of results) expect(r.status === "rejected" && r.reason).toBeInstanceOf(QueueBusyError);

        const rt = { ...createIngestRuntime(bench.ctx, parseSettings({}), 0, { keyCacheMs: 0 }), enqueue: writer };
        const key = await bench.store.db
          .selectFrom("project_keys")
          .select("public_key")
          .where("project_id", "=", bench.projectId)
          .executeTakeFirstOrThrow();
        const eventId = newEventId();
        const answer = await acceptEnvelope(rt, {
          projectId: bench.projectId,
          auth: { xSentryAuth: `Sentry sentry_key=${key.public_key}, sentry_version=7`, query: new URLSearchParams() },
          body: (async function* () {
            yield errorEnvelope(eventId, "answered 503");
          })(),
          receivedAt: Date.now(),
        });
        expect(answer).toEqual({ status: 503, reason: "the ingest queue is busy; retry later" });
      } finally {
        holder.exec("ROLLBACK");
        holder.close();
        await store.close();
      }
    });
  });
});
