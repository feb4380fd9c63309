import type { Kysely } from "kysely";
import { writeSettled } from "../../db/digest-write";
import { noteReleases, releasesIn } from "../releases/seen";
import { digestedUpTo } from "../../db/queue";
import type { DB, QueueDB } from "../../db/schema";
import type { Ctx } from "../context";
import type { EnvelopeLimits } from "../envelope/index";
import type { FingerprintRule } from "../grouping/index";
import { fingerprintRules } from "../issues/grouping-rules";
import { projectOptions, type ProjectOptions } from "../projects/options";
import type { Enricher } from "./enrich/enricher";
import { productionEnrichers, sharedEnrichmentCache } from "./enrich/registry";
import { DEFAULT_ENRICHMENT_BUDGET, type EnrichmentBudget } from "./enrich/run";
import { runStages, type EnvelopeInput } from "./run";
import { driveInProcessConsumers } from "../outbox/in-process";
import type { Settled } from "./settled";

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
  /** Told, after the batch commits, how many envelopes it set aside as dead letters (for the operator's log). */
  onSetAside?: (count: number) => void;
  /** The enrichers to run on error events before grouping; production's (enrich/registry.ts) unless given. */
  enrichers?: readonly Enricher[];
  enrichmentBudget?: EnrichmentBudget;
  /** Told, within the batch's transaction, the releases its events and sessions name (digestBatch creates them after the commit). */
  onReleases?: (pairs: { projectId: number; version: string }[]) => void;
}

/** 16 MiB of envelope bodies: with what parsing and normalizing makes of them, well under 100 MB held. */
const DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;

interface Queued {
  id: number;
  project_id: number;
  key_id: number;
  received_at: number;
  body: Uint8Array;
  /** Set for envelopes taken from `digest_deferred`: how many times they waited already. */
  deferrals?: number;
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
  return queue
    .selectFrom("ingest_queue")
    .select(["id", "project_id", "key_id", "received_at", "body"])
    .where("id", "in", ids)
    .orderBy("id")
    .execute();
}

/**
 * Loads each project's options and fingerprint rules once per batch, then runs the queued
 * envelopes through the stages (run.ts): CPU work and reads only.
 */
async function digestQueued(ctx: Ctx, queued: readonly Queued[], options: DigestOptions): Promise<Settled[]> {
  const optionsByProject = new Map<number, ProjectOptions>();
  const rulesByProject = new Map<number, readonly FingerprintRule[]>();
  const inputs: EnvelopeInput[] = [];
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
    inputs.push({
      projectId: entry.project_id,
      keyId: entry.key_id,
      receivedAt: entry.received_at,
      body: entry.body,
      options: project,
      rules,
      deferrals: entry.deferrals ?? 0,
    });
  }
  return runStages(inputs, {
    limits: options.limits,
    enrichers: options.enrichers ?? productionEnrichers(ctx.artifacts),
    budget: options.enrichmentBudget ?? DEFAULT_ENRICHMENT_BUDGET,
    cache: sharedEnrichmentCache,
  });
}

/** Deletes queue rows by id, in statements of bounded size. */
async function dequeue(queue: Kysely<QueueDB>, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += DEQUEUE_CHUNK)
    await queue
      .deleteFrom("ingest_queue")
      .where("id", "in", ids.slice(i, i + DEQUEUE_CHUNK))
      .execute();
}
const DEQUEUE_CHUNK = 500;

class BatchTakenError extends Error {}

/**
 * Digests up to `batchSize` queued envelopes: every item is filtered, normalized and stored
 * and its outcome counted in one write transaction — all or nothing, so a crash mid-batch
 * leaves the queue as it was and the batch is done again. Returns how many it took.
 *
 * No envelope can hold the queue up: one whose processing throws, or whose rows the database
 * refuses, becomes a dead letter in that same transaction (see src/db/digest-write.ts), and the rest of
 * the batch is stored.
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
  const seen: { projectId: number; version: string }[] = [];
  const noting = { ...options, onReleases: (pairs: { projectId: number; version: string }[]) => seen.push(...pairs) };
  const taken = (await digestDeferred(ctx, noting)) + (await digestOneBatch(ctx, noting));
  // Releases named by the batch's events and sessions exist from now on (after the commit).
  if (seen.length > 0) await noteReleases(ctx, seen);
  // The issue changes this batch (or a triage whose own drive failed) wrote: the activity log follows.
  await driveInProcessConsumers(ctx);
  return taken;
}

async function digestOneBatch(ctx: Ctx, options: DigestOptions): Promise<number> {
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
  const settled = await digestQueued(ctx, queued, options);
  const first = queued[0]!.id;
  const last = queued[queued.length - 1]!.id;
  let setAside = 0;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const main: Kysely<DB> = trx;
      if ((await digestedUpTo(main)) >= first) throw new BatchTakenError();
      setAside = await writeSettled(trx, ctx.dialect, settled, ctx.now(), ctx.releaseOrder.within(trx));
      options.onReleases?.(releasesIn(settled));
      await trx
        .insertInto("digest_progress")
        .values({ id: 1, last_queue_id: last })
        .onConflict((oc) => oc.column("id").doUpdateSet({ last_queue_id: last }))
        .execute();
    });
  } catch (error) {
    // Another process on the same files digested this batch first: take the next one.
    if (error instanceof BatchTakenError) return digestOneBatch(ctx, options);
    throw error;
  }
  if (setAside > 0) options.onSetAside?.(setAside);
  // Rows at or below the mark are done whether or not this delete happens (a crash here).
  if (!options.leaveDigestedRows) await ctx.queue.deleteFrom("ingest_queue").where("id", "<=", last).execute();
  return queued.length;
}

/** Deferred envelopes digested at most at once: few, each may be large. */
const DEFERRED_BATCH = 20;

/**
 * Digests the deferred envelopes whose wait is over (`digest_deferred`: an event in them was
 * still being enriched, a source map decoding, when their batch was written). Read outside any
 * transaction, like the queue file; the write transaction deletes them and stores what they
 * hold — or defers them again — and gives up if another process took them meanwhile.
 */
async function digestDeferred(ctx: Ctx, options: DigestOptions): Promise<number> {
  const due = await ctx.db
    .selectFrom("digest_deferred")
    .select(["id", "project_id", "key_id", "received_at", "body", "deferrals"])
    .where("not_before", "<=", ctx.now())
    .orderBy("id")
    .limit(DEFERRED_BATCH)
    .execute();
  if (due.length === 0) return 0;
  const settled = await digestQueued(ctx, due, options);
  let setAside = 0;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const ids = due.map((d) => d.id);
      const gone = await trx.deleteFrom("digest_deferred").where("id", "in", ids).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== ids.length) throw new BatchTakenError();
      setAside = await writeSettled(trx, ctx.dialect, settled, ctx.now(), ctx.releaseOrder.within(trx));
      options.onReleases?.(releasesIn(settled));
    });
  } catch (error) {
    if (error instanceof BatchTakenError) return 0;
    throw error;
  }
  if (setAside > 0) options.onSetAside?.(setAside);
  return due.length;
}

/** Main databases (SQLite) whose own `ingest_queue` table, used before the queue file, was found empty. */
const legacyQueueEmpty = new WeakSet<Kysely<DB>>();

/** Claim, digest, write and dequeue in one transaction on one database. */
async function digestInOneTransaction(ctx: Ctx, options: DigestOptions): Promise<number> {
  let setAside = 0;
  const taken = await ctx.db.transaction().execute(async (trx) => {
    // The queue table of the main database, within this transaction.
    const queue: Kysely<DB> = trx;
    const queued = await nextBatch(queue, options, 0, ctx.dialect === "postgres");
    if (queued.length === 0) return 0;
    const settled = await digestQueued({ ...ctx, db: trx }, queued, options);
    setAside = await writeSettled(trx, ctx.dialect, settled, ctx.now(), ctx.releaseOrder.within(trx));
    options.onReleases?.(releasesIn(settled));
    await dequeue(
      queue,
      queued.map((q) => q.id),
    );
    return queued.length;
  });
  if (setAside > 0) options.onSetAside?.(setAside);
  return taken;
}
