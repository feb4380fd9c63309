import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, type TestStore } from "../../../test/support/stores";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "../projects/create-project";
import { createUser } from "../accounts/create-user";
import { testCtx } from "../../../test/support/stores";
import { waitFor } from "../../../test/support/wait";
import { KyselyIngestQueue } from "../../db/ingest-queue";
import { giveBackPace, QueueWriter } from "./queue-writer";

describe.each(DIALECTS)("QueueWriter on %s", (dialect) => {
  let store: TestStore;
  let projectId = 0;
  const row = (n: number) => ({
    project_id: projectId,
    key_id: 0,
    endpoint: "envelope" as const,
    received_at: n,
    body: Buffer.from(`{}\n{"type":"event","length":2}\n{}`),
  });
  const ids = async () => (await store.queue.selectFrom("ingest_queue").select("id").orderBy("id").execute()).map((r) => r.id);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    await createUser({ ctx, input: { email: "q@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "q", owner: "q@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "q", slug: "p" } })).project.id;
  });
  afterAll(() => store.cleanup());

  it("commits concurrent rows together and deletes digested rows with the next write", async () => {
    const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect));
    await Promise.all([1, 2, 3].map((n) => writer.add(row(n))));
    const first = await ids();
    expect(first).toHaveLength(3);
    writer.forget(first[1]!);
    await writer.add(row(4));
    const after = await ids();
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(first[2]);
  });

  it("deletes digested rows soon when no request comes", async () => {
    const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect));
    const before = await ids();
    writer.forget(before[before.length - 1]!);
    await waitFor(async () => (await ids()).length === 0, 15_000, "the digested rows to be deleted without a write");
  });

  if (dialect === "postgres") {
    it("writes each group with COPY: every byte of every body, a body larger than a COPY message, in order", async () => {
      await store.queue.deleteFrom("ingest_queue").execute();
      let copies = 0;
      const copy = store.appendToQueue;
      if (!copy) throw new Error("a PostgreSQL store appends with COPY");
      const queue = new KyselyIngestQueue(store.queue, store.dialect, (rows) => {
        copies++;
        return copy(rows);
      });
      const writer = new QueueWriter(queue, false, 2);
      const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const bodies = [
        every,
        Buffer.alloc(300 * 1024, 0x7b),
        Buffer.from("{}\n\u0000\n"),
        ...Array.from({ length: 40 }, (_, i) => Buffer.from(`{"n":${i}}`)),
      ];
      await Promise.all(bodies.map((body, i) => writer.add({ ...row(2 ** 40 + i), endpoint: i === 2 ? "store" : "envelope", body })));
      expect(copies).toBeGreaterThan(0);
      const stored = await store.queue.selectFrom("ingest_queue").selectAll().orderBy("id").execute();
      expect(stored.map((r) => Buffer.compare(r.body, bodies[r.received_at - 2 ** 40]!))).toEqual(bodies.map(() => 0));
      expect(stored.map((r) => r.received_at)).toEqual(bodies.map((_, i) => 2 ** 40 + i));
      expect(stored.map((r) => [r.project_id, r.key_id, r.endpoint])).toEqual(
        bodies.map((_, i) => [projectId, 0, i === 2 ? "store" : "envelope"]),
      );
    });

    it("writes none of a group when one row is refused, and the pool's connections still work", async () => {
      await store.queue.deleteFrom("ingest_queue").execute();
      const queue = testCtx(store).ingestQueue;
      // No such project: the foreign key refuses the row, and with it the whole COPY.
      await expect(queue.append([row(1), { ...row(2), project_id: 999_999 }, row(3)])).rejects.toThrow(/foreign key/);
      expect(await ids()).toEqual([]);
      await Promise.all(Array.from({ length: 12 }, (_, i) => queue.append([row(10 + i)])));
      expect(await ids()).toHaveLength(12);
    });
  }

  if (dialect === "sqlite") {
    it("gives the queue file's freed pages back once no group has been written for a while, not while writing", async () => {
      const idleMs = 300;
      const writer = new QueueWriter(new KyselyIngestQueue(store.queue, store.dialect), true, 1, idleMs);
      const big = { ...row(0), body: Buffer.alloc(256 * 1024, 0x61) };
      await Promise.all(Array.from({ length: 20 }, () => writer.add(big)));
      const all = await ids();
      const pages = async () => Number((await sql<{ page_count: number }>`pragma page_count`.execute(store.queue)).rows[0]!.page_count);
      const free = async () =>
        Number((await sql<{ freelist_count: number }>`pragma freelist_count`.execute(store.queue)).rows[0]!.freelist_count);
      const before = await pages();
      const pageBytes = Number((await sql<{ page_size: number }>`pragma page_size`.execute(store.queue)).rows[0]!.page_size);
      const freed = (0.95 * 20 * 256 * 1024) / pageBytes;
      writer.forget(all[all.length - 1]!);
      await writer.add(row(5));
      // The deletion freed 20 × 256 KiB; the write path itself gives none of it back.
      expect(await free()).toBeGreaterThan(freed);
      expect(await pages()).toBe(before);
      // Idle: a few pages at a time until none are free.
      await waitFor(async () => (await free()) === 0, 15_000, "every freed page to be given back");
      expect(await pages()).toBeLessThan(before - freed);
      expect(await ids()).toEqual([all[all.length - 1]! + 1]);
    });
  }
});

describe("giveBackPace", () => {
  it("halves a slow step and pauses four times its length, so the request thread is never held long nor kept busy", () => {
    expect(giveBackPace(256, 40)).toEqual({ pages: 128, pauseMs: 160 });
    expect(giveBackPace(16, 40)).toEqual({ pages: 16, pauseMs: 160 });
    // Over a run of slow steps the thread spends at most a fifth of its time giving back.
    let pages = 256;
    let busy = 0;
    let paused = 0;
    for (let i = 0; i < 50; i++) {
      const took = pages / 10; // 0.1 ms per page: a large file right after a drain
      const next = giveBackPace(pages, took);
      busy += took;
      paused += next.pauseMs;
      pages = next.pages;
      expect(took).toBeLessThanOrEqual(25.6);
    }
    expect(busy / (busy + paused)).toBeLessThanOrEqual(0.2);
    expect(pages).toBe(32);
  });

  it("grows a quick step back to its largest and keeps the shortest pause", () => {
    expect(giveBackPace(32, 1)).toEqual({ pages: 64, pauseMs: 25 });
    expect(giveBackPace(256, 0.5)).toEqual({ pages: 256, pauseMs: 25 });
    expect(giveBackPace(64, 3)).toEqual({ pages: 64, pauseMs: 25 });
  });
});
