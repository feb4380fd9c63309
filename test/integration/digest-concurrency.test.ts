import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Ctx } from "../../src/core/context";
import { digestBatch, settleQueued } from "../../src/core/digest/batch";
import type { SettleBatch } from "../../src/core/ports/digest-queue";
import { DEFAULT_ENVELOPE_LIMITS } from "../../src/core/envelope/index";
import { createUser } from "../../src/core/accounts/create-user";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { connect, type Store } from "../../src/db/connect";
import { adoptQueue, digestedUpTo, queuedCount } from "../../src/db/queue";
import { buildEnvelope, newEventId, spanEnvelope, transactionEnvelope } from "../support/envelopes";
import type * as ProjectOptionsModule from "../../src/core/projects/options";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/** Runs a test's step after a digester has read its batch and before it digests it. */
const hooks = vi.hoisted(() => ({ afterRead: null as null | (() => Promise<unknown>) }));
vi.mock("../../src/core/projects/options", async (importOriginal) => {
  const original = await importOriginal<typeof ProjectOptionsModule>();
  return {
    ...original,
    projectOptions: async (...args: Parameters<typeof original.projectOptions>) => {
      const step = hooks.afterRead;
      hooks.afterRead = null;
      if (step) await step();
      return original.projectOptions(...args);
    },
  };
});

/**
 * Two digesters on the same data (two server processes on one SQLite file or one PostgreSQL
 * database): each queued event is stored once and counted once in its issue, whichever
 * digester takes it, and the batches stay bounded in bytes.
 */
describe.each(DIALECTS)("digesting on %s", (dialect) => {
  let store: TestStore;
  let other: Store;
  let ctx: Ctx;
  let projectId = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    other = connect(
      dialect === "sqlite"
        ? { kind: "sqlite", file: `${store.env.TELLTALE_DATA_DIR}/telltale.sqlite` }
        : { kind: "postgres", url: store.env.DATABASE_URL!, poolMax: 4 },
    );
    await createUser({ ctx, input: { email: "dev@example.com", password: "password-123" } });
    await createOrganization({ ctx, input: { slug: "d", owner: "dev@example.com" } });
    projectId = (await createProject({ ctx, input: { org: "d", slug: "p" } })).project.id;
  });
  afterAll(async () => {
    await other.close();
    await store.cleanup();
  });

  /** Queues `n` events; `resend` gives the ids to queue instead of new ones (an SDK's retries). */
  async function enqueue(n: number, padding = 0, type = "PaddedError", resend?: (i: number) => string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = resend?.(i) ?? newEventId();
      ids.push(id);
      const payload = {
        event_id: id,
        platform: "node",
        timestamp: Date.now() / 1000,
        extra: { pad: "x".repeat(padding) },
        exception: { values: [{ type, value: `boom ${i}` }] },
      };
      const body = buildEnvelope({ event_id: id }, [{ type: "event", payload: JSON.stringify(payload) }]);
      await store.queue
        .insertInto("ingest_queue")
        .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
        .execute();
    }
    return ids;
  }

  const options = { batchSize: 25, limits: DEFAULT_ENVELOPE_LIMITS };
  const drain = async (c: Ctx) => {
    let taken = 0;
    for (;;) {
      const n = await digestBatch(c, options);
      if (n === 0) return taken;
      taken += n;
    }
  };
  async function expectStoredOnce(ids: string[]) {
    const events = await store.db.selectFrom("events").select(["event_id", "issue_id"]).where("event_id", "in", ids).execute();
    expect(events).toHaveLength(ids.length);
    const issueIds = new Set(events.map((e) => e.issue_id));
    expect(issueIds.size).toBe(1);
    const issue = await store.db.selectFrom("issues").select("times_seen").where("id", "=", events[0]!.issue_id!).executeTakeFirstOrThrow();
    expect(issue.times_seen).toBe(ids.length);
    expect(await store.queue.selectFrom("ingest_queue").select("id").execute()).toEqual([]);
  }

  it("stores every event once when another digester takes the queue between read and write", async () => {
    const ids = await enqueue(60, 0, "TakenError");
    let b = 0;
    hooks.afterRead = async () => (b = await drain(testCtx(other)));
    const a = await drain(ctx);
    // SQLite: the first digester's batch was gone when it came to write, so it gave it up.
    // PostgreSQL: it had claimed its batch (SKIP LOCKED), so the other digester took the rest.
    expect([a, b]).toEqual(dialect === "sqlite" ? [0, 60] : [25, 35]);
    await expectStoredOnce(ids);
  });

  /** The project's outcomes of a category (error events unless told), as `outcome/reason` → quantity. */
  async function errorOutcomes(category = "error"): Promise<Record<string, number>> {
    const rows = await store.db
      .selectFrom("outcomes")
      .select(["outcome", "reason", "quantity"])
      .where("project_id", "=", projectId)
      .where("category", "=", category)
      .execute();
    const out: Record<string, number> = {};
    for (const r of rows) out[`${r.outcome}/${r.reason}`] = (out[`${r.outcome}/${r.reason}`] ?? 0) + Number(r.quantity);
    return out;
  }

  it("stores and counts an event id once: sent again in one batch, in the next, and after it was digested", async () => {
    const before = await errorOutcomes();
    const id = newEventId();
    // Three sends in one batch, two more in a batch of their own, one a batch later still.
    await enqueue(3, 0, "RetriedError", () => id);
    expect(await drain(ctx)).toBe(3);
    await enqueue(2, 0, "RetriedError", () => id);
    expect(await drain(testCtx(other))).toBe(2);
    await enqueue(1, 0, "RetriedError", () => id);
    expect(await drain(ctx)).toBe(1);
    await expectStoredOnce([id]);
    const after = await errorOutcomes();
    expect((after["accepted/"] ?? 0) - (before["accepted/"] ?? 0)).toBe(1);
    expect((after["invalid/duplicate"] ?? 0) - (before["invalid/duplicate"] ?? 0)).toBe(5);
  });

  /** Queues each body as it is, `times` times: an SDK's retries resend the same envelope. */
  async function enqueueAgain(bodies: readonly Buffer[], times = 1): Promise<void> {
    for (let t = 0; t < times; t++)
      for (const body of bodies)
        await store.queue
          .insertInto("ingest_queue")
          .values({ project_id: projectId, key_id: 0, endpoint: "envelope", received_at: Date.now(), body })
          .execute();
  }
  /** What the project's transactions, spans and their outcomes are now, to compare with later. */
  async function tracing() {
    const count = async (table: "transactions" | "spans") =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .where("project_id", "=", projectId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      transactions: await count("transactions"),
      spans: await count("spans"),
      tx: await errorOutcomes("transaction"),
      span: await errorOutcomes("span"),
    };
  }
  type Tracing = Awaited<ReturnType<typeof tracing>>;
  const moved = (a: Tracing, b: Tracing) => ({
    transactions: b.transactions - a.transactions,
    spans: b.spans - a.spans,
    tx: {
      accepted: (b.tx["accepted/"] ?? 0) - (a.tx["accepted/"] ?? 0),
      duplicate: (b.tx["invalid/duplicate"] ?? 0) - (a.tx["invalid/duplicate"] ?? 0),
    },
    span: {
      accepted: (b.span["accepted/"] ?? 0) - (a.span["accepted/"] ?? 0),
      duplicate: (b.span["invalid/duplicate"] ?? 0) - (a.span["invalid/duplicate"] ?? 0),
    },
  });

  it("stores and counts a transaction and its spans once: resent in one batch, in the next, and after it was digested", async () => {
    const before = await tracing();
    // A transaction event (its root span and one child) and a span v2 segment, each resent as it was.
    const tx = transactionEnvelope(newEventId(), "GET /retried");
    const segment = spanEnvelope("GET /streamed");
    await enqueueAgain([tx, segment], 3);
    expect(await drain(ctx)).toBe(6);
    await enqueueAgain([tx, segment], 2);
    expect(await drain(testCtx(other))).toBe(4);
    await enqueueAgain([tx]);
    expect(await drain(ctx)).toBe(1);
    expect(moved(before, await tracing())).toEqual({
      transactions: 2,
      spans: 3,
      tx: { accepted: 1, duplicate: 5 },
      span: { accepted: 3, duplicate: 5 * 2 + 4 },
    });
  });

  if (dialect === "postgres") {
    it("stores each transaction and its spans once when two digesters take its sends at the same time", async () => {
      const before = await tracing();
      const bodies = Array.from({ length: 15 }, (_, i) => transactionEnvelope(newEventId(), `GET /race/${i}`));
      // Every transaction twice, 15 apart: the digesters' batches hold the same ones at once.
      await enqueueAgain(bodies, 2);
      const [a, b] = await Promise.all([drain(ctx), drain(testCtx(other))]);
      expect(a + b).toBe(30);
      expect(moved(before, await tracing())).toEqual({
        transactions: 15,
        spans: 30,
        tx: { accepted: 15, duplicate: 15 },
        span: { accepted: 30, duplicate: 30 },
      });
    });

    it("stores each event id once when two digesters take its sends at the same time", async () => {
      const ids = Array.from({ length: 30 }, () => newEventId());
      // Every id twice, 30 apart: the digesters' batches of 25 hold the same ids at once.
      await enqueue(60, 0, "RetriedRaceError", (i) => ids[i % 30]!);
      const [a, b] = await Promise.all([drain(ctx), drain(testCtx(other))]);
      expect(a + b).toBe(60);
      await expectStoredOnce(ids);
    });

    it("makes one issue when two digesters see a new fingerprint at the same time", async () => {
      const ids = await enqueue(60, 0, "RaceError");
      const [a, b] = await Promise.all([drain(ctx), drain(testCtx(other))]);
      expect(a + b).toBe(60);
      await expectStoredOnce(ids);
    });
  }

  if (dialect === "sqlite") {
    it("digests envelopes an earlier version queued in the main file, then the queue file's", async () => {
      const legacy = newEventId();
      const payload = {
        event_id: legacy,
        platform: "node",
        timestamp: Date.now() / 1000,
        exception: { values: [{ type: "LegacyError", value: "queued before the upgrade" }] },
      };
      await store.db
        .insertInto("ingest_queue")
        .values({
          project_id: projectId,
          key_id: 0,
          endpoint: "envelope",
          received_at: Date.now(),
          body: buildEnvelope({ event_id: legacy }, [{ type: "event", payload: JSON.stringify(payload) }]),
        })
        .execute();
      const ids = await enqueue(3, 0, "AfterUpgradeError");
      // A process that starts after the upgrade: a connection whose main queue was never seen empty.
      const restarted = connect({ kind: "sqlite", file: `${store.env.TELLTALE_DATA_DIR}/telltale.sqlite` });
      try {
        expect(await queuedCount(restarted)).toBe(4);
        const c = testCtx(restarted);
        expect(await digestBatch(c, options)).toBe(1);
        expect(await digestBatch(c, options)).toBe(3);
        expect(await digestBatch(c, options)).toBe(0);
        expect(await queuedCount(restarted)).toBe(0);
      } finally {
        await restarted.close();
      }
      expect(
        await store.db
          .selectFrom("events")
          .select("event_id")
          .where("event_id", "in", [legacy, ...ids])
          .execute(),
      ).toHaveLength(4);
    });

    describe("with the next batch settled while one is written (the settle thread's lookahead)", () => {
      /** A settle that runs elsewhere, as the settle thread does: records the first queue id of each batch it is given. */
      function recordingSettle(c: Ctx, fail?: (first: number) => boolean) {
        const firsts: number[] = [];
        const settle: SettleBatch = async (queued) => {
          firsts.push(queued[0]!.id);
          if (fail?.(queued[0]!.id)) throw new Error("the settle thread failed");
          return settleQueued(c, queued, options);
        };
        return { firsts, options: { ...options, settle } };
      }

      it("starts settling the next batch before writing one, and stores every event once, in order", async () => {
        const ids = await enqueue(60, 0, "LookaheadError");
        const own = testCtx(store);
        const { firsts, options: lookahead } = recordingSettle(own);
        expect(await digestBatch(own, lookahead)).toBe(25);
        // The first batch and the next, read after the first batch's last id, before the first was written.
        expect(firsts).toHaveLength(2);
        expect(firsts[1]! - firsts[0]!).toBe(25);
        expect(await digestBatch(own, lookahead)).toBe(25);
        expect(await digestBatch(own, lookahead)).toBe(10);
        expect(await digestBatch(own, lookahead)).toBe(0);
        // Each batch settled once: the looked-ahead ones were used, not read again.
        expect(firsts).toHaveLength(3);
        await expectStoredOnce(ids);
        const stored = await store.db.selectFrom("events").select("event_id").where("event_id", "in", ids).orderBy("id").execute();
        expect(stored.map((e) => e.event_id)).toEqual(ids);
      });

      it("gives up a looked-ahead batch that another digester wrote first", async () => {
        const ids = await enqueue(60, 0, "StaleLookaheadError");
        const own = testCtx(store);
        const { firsts, options: lookahead } = recordingSettle(own);
        expect(await digestBatch(own, lookahead)).toBe(25);
        expect(await drain(testCtx(other))).toBe(35);
        expect(await digestBatch(own, lookahead)).toBe(0);
        expect(firsts).toHaveLength(2);
        await expectStoredOnce(ids);
      });

      it("leaves a batch whose settling failed queued, and takes it again next time", async () => {
        const ids = await enqueue(30, 0, "FailedLookaheadError");
        const own = testCtx(store);
        let failures = 1;
        const { options: lookahead } = recordingSettle(own, () => failures-- > 0);
        await expect(digestBatch(own, lookahead)).rejects.toThrow("the settle thread failed");
        expect(await digestBatch(own, lookahead)).toBe(25);
        expect(await digestBatch(own, lookahead)).toBe(5);
        expect(await digestBatch(own, lookahead)).toBe(0);
        await expectStoredOnce(ids);
      });
    });

    it("never counts a new envelope as digested when the queue file is younger than the progress mark", async () => {
      const done = await digestedUpTo(store.db);
      // As if the queue file had been deleted or restored from an older backup.
      await store.db
        .updateTable("digest_progress")
        .set({ last_queue_id: done + 1000 })
        .where("id", "=", 1)
        .execute();
      await adoptQueue(store);
      const ids = await enqueue(2, 0, "YoungQueueError");
      expect(await queuedCount(store)).toBe(2);
      expect(await digestBatch(ctx, options)).toBe(2);
      expect(await store.db.selectFrom("events").select("event_id").where("event_id", "in", ids).execute()).toHaveLength(2);
    });
  }

  it("takes at most maxBatchBytes of bodies per batch, but always at least one envelope", async () => {
    await enqueue(5, 40_000);
    const options = { batchSize: 50, maxBatchBytes: 100_000, limits: DEFAULT_ENVELOPE_LIMITS };
    expect(await digestBatch(ctx, options)).toBe(2);
    expect(await digestBatch(ctx, { ...options, maxBatchBytes: 1 })).toBe(1);
    expect(await digestBatch(ctx, options)).toBe(2);
    expect(await digestBatch(ctx, options)).toBe(0);
  });
});
