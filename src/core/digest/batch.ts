import { sql, type Kysely } from "kysely";
import { digestedUpTo } from "../../db/queue";
import type { DB, QueueDB } from "../../db/schema";
import type { Ctx } from "../context";
import { isEnvelopeError, parseEnvelope, type EnvelopeLimits } from "../envelope/index";
import { writeOutcomes } from "../outcomes/record";
import { projectOptions, type ProjectOptions } from "../projects/options";
import { digestItem, emptyRows, type DigestRows } from "./items";
import type { FingerprintRule } from "../grouping/index";
import { assignIssues } from "../issues/assign";
import { fingerprintRules } from "../issues/grouping-rules";

export interface DigestOptions {
  /** Envelopes per transaction: large enough to amortize the commit, small enough to keep writes short. */
  batchSize: number;
  /**
   * SQLite: leave the digested rows in the queue file for the request path to delete
   * (src/core/ingest/queue-writer.ts), so that only one thread writes that file. Without it the
   * digest deletes them itself (the CLI, tests).
   */
  leaveDigestedRows?: boolean;
  /** Body bytes per batch past its first envelope: bounds the memory a batch holds. */
  maxBatchBytes?: number;
  limits: EnvelopeLimits;
}

/** 16 MiB of envelope bodies: with what parsing and normalizing makes of them, well under 100 MB held. */
const DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;

/** Rows per INSERT statement: SQLite allows 32,766 bound parameters, the widest table has 11 columns. */
const INSERT_CHUNK = 500;

async function insertChunks<T extends keyof DB>(
  trx: Kysely<DB>,
  table: T,
  rows: readonly Record<string, unknown>[],
  ignoreConflict?: readonly string[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    // The row types are checked where the rows are built (digest/items.ts); here they pass through.
    let query = trx.insertInto(table).values(chunk as never);
    if (ignoreConflict) query = query.onConflict((oc) => oc.columns(ignoreConflict as never).doNothing());
    await query.execute();
  }
}

/** Adds session counts, summing rows with the same key first (PostgreSQL refuses duplicates in one upsert). */
async function addSessions(trx: Kysely<DB>, rows: DigestRows["sessions"]): Promise<void> {
  const merged = new Map<string, DigestRows["sessions"][number]>();
  for (const r of rows) {
    const key = `${r.project_id}\u0000${r.hour}\u0000${r.release}\u0000${r.environment}\u0000${r.status}`;
    const prev = merged.get(key);
    if (prev) prev.quantity += r.quantity;
    else merged.set(key, { ...r });
  }
  const all = [...merged.values()];
  for (let i = 0; i < all.length; i += INSERT_CHUNK) {
    await trx
      .insertInto("session_counts")
      .values(all.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(["project_id", "hour", "release", "environment", "status"]).doUpdateSet({ quantity: sql`session_counts.quantity + excluded.quantity` }),
      )
      .execute();
  }
}

interface Queued {
  id: number;
  project_id: number;
  received_at: number;
  body: Uint8Array;
}

/**
 * The queued envelopes to digest next, oldest first, after `after`: at most `batchSize` of
 * them and, past the first, no more than `maxBatchBytes` of bodies, so a batch of 1000-span
 * containers does not hold hundreds of megabytes at once. `claim` (PostgreSQL) locks them
 * for this transaction and skips rows other digesters hold.
 */
async function nextBatch(queue: Kysely<QueueDB>, options: DigestOptions, after: number, claim: boolean): Promise<Queued[]> {
  let sizes = queue
    .selectFrom("ingest_queue")
    .select((eb) => ["id", eb.fn<number>("length", ["body"]).as("bytes")])
    .where("id", ">", after)
    .orderBy("id")
    .limit(options.batchSize);
  if (claim) sizes = sizes.forUpdate().skipLocked();
  const candidates = await sizes.execute();
  const ids: number[] = [];
  let bytes = 0;
  for (const c of candidates) {
    if (ids.length > 0 && bytes + Number(c.bytes) > (options.maxBatchBytes ?? DEFAULT_BATCH_BYTES)) break;
    ids.push(c.id);
    bytes += Number(c.bytes);
  }
  if (ids.length === 0) return [];
  return queue.selectFrom("ingest_queue").select(["id", "project_id", "received_at", "body"]).where("id", "in", ids).orderBy("id").execute();
}

/** Parses, filters, normalizes and groups queued envelopes into rows: CPU work, reads only. */
async function digestQueued(ctx: Ctx, queued: readonly Queued[], options: DigestOptions): Promise<DigestRows> {
  const rows = emptyRows();
  const optionsByProject = new Map<number, ProjectOptions>();
  const rulesByProject = new Map<number, readonly FingerprintRule[]>();
  for (const entry of queued) {
    let project = optionsByProject.get(entry.project_id);
    if (!project) {
      project = await projectOptions(ctx, entry.project_id);
      optionsByProject.set(entry.project_id, project);
    }
    let rules = rulesByProject.get(entry.project_id);
    if (!rules) {
      rules = await fingerprintRules(ctx, entry.project_id);
      rulesByProject.set(entry.project_id, rules);
    }
    try {
      const envelope = parseEnvelope(Buffer.from(entry.body), options.limits);
      const c = { projectId: entry.project_id, receivedAt: entry.received_at, header: envelope.header, options: project, rules, rows };
      for (const item of envelope.items) digestItem(c, item);
    } catch (error) {
      // Stored envelopes were written by accept and parse; one that does not is counted, not retried forever.
      if (!isEnvelopeError(error)) throw error;
      rows.outcomes.push({ projectId: entry.project_id, category: "default", outcome: "invalid", reason: error.reason, quantity: 1, at: entry.received_at });
    }
  }
  return rows;
}

/** Writes a batch's rows and removes its queue rows: the caller's transaction makes it all or nothing. */
async function writeBatch(trx: Kysely<DB>, dialect: Ctx["dialect"], rows: DigestRows, now: number): Promise<void> {
  await assignIssues(trx, rows.grouped, now, dialect === "postgres");
  await insertChunks(trx, "events", rows.events, ["project_id", "event_id"]);
  await insertChunks(trx, "transactions", rows.transactions, ["project_id", "event_id"]);
  await insertChunks(trx, "spans", rows.spans);
  await insertChunks(trx, "logs", rows.logs);
  await insertChunks(trx, "feedback", rows.feedback);
  await insertChunks(trx, "check_ins", rows.checkIns);
  await insertChunks(trx, "raw_items", rows.rawItems);
  await addSessions(trx, rows.sessions);
  await writeOutcomes(trx, rows.outcomes);
}

/** Deletes queue rows by id, in statements of bounded size. */
async function dequeue(queue: Kysely<QueueDB>, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += INSERT_CHUNK) await queue.deleteFrom("ingest_queue").where("id", "in", ids.slice(i, i + INSERT_CHUNK)).execute();
}

class BatchTakenError extends Error {}

/**
 * Digests up to `batchSize` queued envelopes: every item is filtered, normalized and stored
 * and its outcome counted in one write transaction — all or nothing, so a crash mid-batch
 * leaves the queue as it was and the batch is done again. Returns how many it took.
 *
 * PostgreSQL locks rows, not the database: the batch is claimed with SKIP LOCKED, digested
 * and deleted from the queue in one transaction, and several processes can digest at once.
 *
 * SQLite has one writer per file: the queue is a file of its own (src/db/queue.ts), read and
 * digested outside any transaction; the write transaction on the main file only writes, and
 * moves the progress mark past the batch (a batch another process digested meanwhile is given
 * up there, not stored twice). The queue rows are deleted after it commits.
 */
export async function digestBatch(ctx: Ctx, options: DigestOptions): Promise<number> {
  if (ctx.dialect === "postgres") return digestInOneTransaction(ctx, options);
  // Envelopes queued in the main file by an earlier version are digested the old way first.
  if (!legacyQueueEmpty.has(ctx.db)) {
    const n = await digestInOneTransaction(ctx, options);
    if (n > 0) return n;
    legacyQueueEmpty.add(ctx.db);
  }
  const done = await digestedUpTo(ctx.db);
  const queued = await nextBatch(ctx.queue, options, done, false);
  if (queued.length === 0) return 0;
  const rows = await digestQueued(ctx, queued, options);
  const first = queued[0]!.id;
  const last = queued[queued.length - 1]!.id;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const main: Kysely<DB> = trx;
      if ((await digestedUpTo(main)) >= first) throw new BatchTakenError();
      await writeBatch(trx, ctx.dialect, rows, ctx.now());
      await trx
        .insertInto("digest_progress")
        .values({ id: 1, last_queue_id: last })
        .onConflict((oc) => oc.column("id").doUpdateSet({ last_queue_id: last }))
        .execute();
    });
  } catch (error) {
    // Another process on the same files digested this batch first: take the next one.
    if (error instanceof BatchTakenError) return digestBatch(ctx, options);
    throw error;
  }
  // Rows at or below the mark are done whether or not this delete happens (a crash here).
  if (!options.leaveDigestedRows) await ctx.queue.deleteFrom("ingest_queue").where("id", "<=", last).execute();
  return queued.length;
}

/** Main databases (SQLite) whose own `ingest_queue` table, used before the queue file, was found empty. */
const legacyQueueEmpty = new WeakSet<Kysely<DB>>();

/** Claim, digest, write and dequeue in one transaction on one database. */
function digestInOneTransaction(ctx: Ctx, options: DigestOptions): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    // The queue table of the main database, within this transaction.
    const queue: Kysely<DB> = trx;
    const queued = await nextBatch(queue, options, 0, ctx.dialect === "postgres");
    if (queued.length === 0) return 0;
    const rows = await digestQueued({ ...ctx, db: trx }, queued, options);
    await writeBatch(trx, ctx.dialect, rows, ctx.now());
    await dequeue(queue, queued.map((q) => q.id));
    return queued.length;
  });
}
