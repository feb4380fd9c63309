import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestBatch } from "../../src/core/digest/batch";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { QueueWriter } from "../../src/core/ingest/queue-writer";
import { checkpointQueue, queueFileOf } from "../../src/db/queue";
import { openDigestBench, type DigestBench } from "../support/digest";
import { errorEnvelope, newEventId } from "../support/envelopes";

/**
 * Decision 0005: on SQLite the request path is the queue file's only writer. The digest reads
 * the file and checkpoints its WAL, and leaves digested rows for the request path to delete;
 * a write from the digest's thread makes the request path's inserts wait (an idle digest's
 * vacuum and checkpoint held ingest up for 7–30 s after a backlog drained, docs/benchmarks.md,
 * 2026-11-28). `PRAGMA data_version` on a connection of its own changes when any other
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
    const writer = new QueueWriter(bench.store.queue);
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
    for (let i = 0; i < 100 && (await queued()).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await queued()).toEqual([]);
    expect(version()).not.toBe(before);
  });
});
