import { type Kysely, sql } from "kysely";
import type { BatchLimits, BatchWritten, DigestQueue, QueuedEnvelope, SettleBatch } from "../core/ports/digest-queue";
import { NOTHING_WRITTEN } from "../core/ports/digest-queue";
import type { ReleaseOrder } from "../core/ports/release-order";
import { releasesIn } from "../core/releases/seen";
import type { Settled } from "../core/digest/settled";
import type { Store } from "./connect";
import type { CopiedTuple } from "./copy-out";
import { writeBatch } from "../core/digest/write";
import { KyselyBatchTransaction } from "./digest-write";
import { digestedUpTo } from "./queue";
import type { DB, QueueDB } from "./schema";

/** Deletes queue rows by id, in statements of bounded size. */
async function dequeue(queue: Kysely<QueueDB>, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += DEQUEUE_CHUNK)
    await queue
      .deleteFrom("ingest_queue")
      .where("id", "in", ids.slice(i, i + DEQUEUE_CHUNK))
      .execute();
}
const DEQUEUE_CHUNK = 500;

/**
 * The queued envelopes to digest next, oldest first, after `after`: at most `limits.size` of
 * them and, past the first, no more than `limits.maxBytes` of bodies, so a batch of 1000-span
 * containers does not hold hundreds of megabytes at once. `claim` (PostgreSQL) locks them for
 * the caller's transaction and skips rows other digesters hold.
 */
async function nextBatch(queue: Kysely<QueueDB>, limits: BatchLimits, after: number, claim: boolean): Promise<QueuedEnvelope[]> {
  let sizes = queue
    .selectFrom("ingest_queue")
    .select((eb) => ["id", eb.fn<number>("length", ["body"]).as("bytes")])
    .where("id", ">", after)
    .orderBy("id")
    .limit(limits.size);
  if (claim) sizes = sizes.forUpdate().skipLocked();
  const candidates = await sizes.execute();
  const ids: number[] = [];
  let bytes = 0;
  for (const c of candidates) {
    if (ids.length > 0 && bytes + Number(c.bytes) > limits.maxBytes) break;
    ids.push(c.id);
    bytes += Number(c.bytes);
  }
  if (ids.length === 0) return [];
  if (claim) return copyClaimed(queue, ids);
  const rows = await queue
    .selectFrom("ingest_queue")
    .select(["id", "project_id", "key_id", "received_at", "body"])
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, projectId: r.project_id, keyId: r.key_id, receivedAt: r.received_at, body: r.body, deferrals: 0 }));
}

/**
 * PostgreSQL: the claimed rows read with a binary COPY (src/db/copy-out.ts), in the claiming
 * transaction: a SELECT would send each body as hex text for the client to decode.
 */
async function copyClaimed(queue: Kysely<QueueDB>, ids: readonly number[]): Promise<QueuedEnvelope[]> {
  // COPY takes no parameters; these are the ids the database just gave.
  if (!ids.every(Number.isSafeInteger)) throw new Error("queue ids must be integers");
  const tuples = await sql<CopiedTuple>`copy (select id, project_id, key_id, received_at, body from ingest_queue
    where id in (${sql.raw(ids.join(","))}) order by id) to stdout (format binary)`.execute(queue);
  return tuples.rows.map((t) => {
    const [id, project, key, received, body] = t;
    if (t.length !== 5 || id?.length !== 4 || project?.length !== 4 || key?.length !== 4 || received?.length !== 8 || !body)
      throw new Error("ingest_queue: a copied row is not (int4, int4, int4, int8, bytea)");
    return {
      id: id.readInt32BE(0),
      projectId: project.readInt32BE(0),
      keyId: key.readInt32BE(0),
      receivedAt: Number(received.readBigInt64BE(0)),
      body,
      deferrals: 0,
    };
  });
}

class BatchTakenError extends Error {}

/** A batch of the queue file read after the progress mark `after`, its settling under way. */
interface Ahead {
  after: number;
  queued: QueuedEnvelope[];
  settled: Promise<Settled[]>;
}

function startSettling(after: number, queued: QueuedEnvelope[], settle: SettleBatch): Ahead {
  const settled = settle(queued);
  // Awaited when the batch is written; until then a failure must not count as unhandled.
  settled.catch(() => undefined);
  return { after, queued, settled };
}

/** Main databases (SQLite) whose own `ingest_queue` table, used before the queue file, was found empty. */
const legacyQueueEmpty = new WeakSet<Kysely<DB>>();

/**
 * The digest queue over the store's databases (src/core/ports/digest-queue.ts).
 *
 * PostgreSQL locks rows, not the database: the batch is claimed with SKIP LOCKED, digested and
 * deleted from the queue in one transaction, and several processes can digest at once.
 *
 * SQLite has one writer per file: the queue is a file of its own (./queue.ts), read and settled
 * outside any transaction; the write transaction on the main file only writes, and moves the
 * progress mark past the batch (a batch another process digested meanwhile is given up there,
 * not stored twice). The queue rows are deleted after it commits.
 */
export class KyselyDigestQueue implements DigestQueue {
  /** SQLite with `BatchLimits.lookahead`: the next batch, read and being settled while the one before it is written. */
  private ahead: Ahead | null = null;

  constructor(
    private readonly store: Pick<Store, "db" | "queue" | "dialect">,
    private readonly releaseOrder: { within(trx: Kysely<DB>): ReleaseOrder },
  ) {}

  /** Writes settled envelopes in the caller's transaction, as core decides (src/core/digest/write.ts). */
  private async write(
    trx: Kysely<DB>,
    settled: readonly Settled[],
    now: number,
  ): Promise<{ setAside: number; releases: BatchWritten["releases"] }> {
    const t = new KyselyBatchTransaction(trx, this.store.dialect, this.releaseOrder.within(trx));
    const setAside = await writeBatch(t, settled, now);
    return { setAside, releases: releasesIn(settled) };
  }

  async digestNext(limits: BatchLimits, settle: SettleBatch, now: () => number): Promise<BatchWritten> {
    if (this.store.dialect === "postgres") return this.claimAndWrite(limits, settle, now);
    // Envelopes queued in the main file by an earlier version are digested first.
    if (!legacyQueueEmpty.has(this.store.db)) {
      const written = await this.digestLegacy(limits, settle, now);
      if (written.taken > 0) return written;
      legacyQueueEmpty.add(this.store.db);
    }
    return this.digestQueueFile(limits, settle, now);
  }

  /** PostgreSQL: claim, settle, write and dequeue in one transaction. */
  private async claimAndWrite(limits: BatchLimits, settle: SettleBatch, now: () => number): Promise<BatchWritten> {
    return this.store.db.transaction().execute(async (trx) => {
      // The queue table of the main database, within this transaction.
      const queue: Kysely<DB> = trx;
      const queued = await nextBatch(queue, limits, 0, true);
      if (queued.length === 0) return NOTHING_WRITTEN;
      const written = await this.write(trx, await settle(queued), now());
      await dequeue(
        queue,
        queued.map((q) => q.id),
      );
      return { taken: queued.length, ...written };
    });
  }

  /**
   * SQLite, the queue file's next batch after the progress mark `done` and its settling: the one
   * looked ahead at when the last batch was written, if it starts right after `done`, else read now.
   * With `limits.lookahead` the batch after it is read and its settling started before returning.
   */
  private async settling(limits: BatchLimits, settle: SettleBatch, done: number): Promise<Ahead | null> {
    const ahead = this.ahead;
    this.ahead = null;
    let current: Ahead | null = ahead && ahead.after === done ? ahead : null;
    if (!current) {
      const queued = await nextBatch(this.store.queue, limits, done, false);
      if (queued.length === 0) return null;
      current = startSettling(done, queued, settle);
    }
    if (limits.lookahead) {
      const last = current.queued[current.queued.length - 1]!.id;
      const next = await nextBatch(this.store.queue, limits, last, false);
      if (next.length > 0) this.ahead = startSettling(last, next, settle);
    }
    return current;
  }

  /** SQLite, the queue file: settle outside any transaction, write with the progress mark. */
  private async digestQueueFile(limits: BatchLimits, settle: SettleBatch, now: () => number): Promise<BatchWritten> {
    const done = await digestedUpTo(this.store.db);
    const current = await this.settling(limits, settle, done);
    if (!current) return NOTHING_WRITTEN;
    const { queued } = current;
    let settled: Settled[];
    try {
      settled = await current.settled;
    } catch (error) {
      // The batch after it was settled on the strength of this one: it is read again next time.
      this.ahead = null;
      throw error;
    }
    const first = queued[0]!.id;
    const last = queued[queued.length - 1]!.id;
    let written: Awaited<ReturnType<KyselyDigestQueue["write"]>>;
    try {
      written = await this.store.db.transaction().execute(async (trx) => {
        if ((await digestedUpTo(trx)) >= first) throw new BatchTakenError();
        const w = await this.write(trx, settled, now());
        await trx
          .insertInto("digest_progress")
          .values({ id: 1, last_queue_id: last })
          .onConflict((oc) => oc.column("id").doUpdateSet({ last_queue_id: last }))
          .execute();
        return w;
      });
    } catch (error) {
      // A batch not written leaves nothing to look ahead from.
      this.ahead = null;
      // Another process on the same files digested this batch first: take the next one.
      if (error instanceof BatchTakenError) return this.digestQueueFile(limits, settle, now);
      throw error;
    }
    // Rows at or below the mark are done whether or not this delete happens (a crash here).
    if (!limits.leaveDigestedRows) await this.store.queue.deleteFrom("ingest_queue").where("id", "<=", last).execute();
    return { taken: queued.length, ...written };
  }

  /**
   * SQLite, the main file's own queue table (an earlier version's): read and settled outside
   * any transaction (one connection: a read beside an open transaction would wait for it), then
   * deleted in the transaction that writes; given up if another process deleted them first.
   */
  private async digestLegacy(limits: BatchLimits, settle: SettleBatch, now: () => number): Promise<BatchWritten> {
    const main: Kysely<QueueDB> = this.store.db;
    const queued = await nextBatch(main, limits, 0, false);
    if (queued.length === 0) return NOTHING_WRITTEN;
    const settled = await settle(queued);
    const ids = queued.map((q) => q.id);
    try {
      const written = await this.store.db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom("ingest_queue").where("id", "in", ids).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== ids.length) throw new BatchTakenError();
        return this.write(trx, settled, now());
      });
      return { taken: queued.length, ...written };
    } catch (error) {
      if (error instanceof BatchTakenError) return this.digestLegacy(limits, settle, now);
      throw error;
    }
  }

  /**
   * Deferred envelopes (`digest_deferred`: an event in them was still being enriched, a source
   * map decoding, when their batch was written), read outside any transaction like the queue
   * file; the write transaction deletes them and stores what they hold — or defers them again.
   */
  async digestDeferred(limit: number, settle: SettleBatch, now: () => number): Promise<BatchWritten> {
    const due = await this.store.db
      .selectFrom("digest_deferred")
      .select(["id", "project_id", "key_id", "received_at", "body", "deferrals"])
      .where("not_before", "<=", now())
      .orderBy("id")
      .limit(limit)
      .execute();
    if (due.length === 0) return NOTHING_WRITTEN;
    const settled = await settle(
      due.map((d) => ({
        id: d.id,
        projectId: d.project_id,
        keyId: d.key_id,
        receivedAt: d.received_at,
        body: d.body,
        deferrals: d.deferrals,
      })),
    );
    try {
      const written = await this.store.db.transaction().execute(async (trx) => {
        const ids = due.map((d) => d.id);
        const gone = await trx.deleteFrom("digest_deferred").where("id", "in", ids).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== ids.length) throw new BatchTakenError();
        return this.write(trx, settled, now());
      });
      return { taken: due.length, ...written };
    } catch (error) {
      if (error instanceof BatchTakenError) return NOTHING_WRITTEN;
      throw error;
    }
  }
}
