import { noteReleases } from "../releases/seen";
import type { QueuedEnvelope, SettleBatch } from "../ports/digest-queue";
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
  /**
   * Settles batches elsewhere — the digest worker's settle thread (src/server/settle-thread.ts)
   * — instead of in the calling thread. With it the queue file's next batch is settled while
   * the one before it is written (`BatchLimits.lookahead`).
   */
  settle?: SettleBatch;
}

/** 16 MiB of envelope bodies: with what parsing and normalizing makes of them, well under 100 MB held. */
const DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Loads each project's options and fingerprint rules once per batch, then runs the queued
 * envelopes through the stages (run.ts): CPU work and reads only.
 */
export async function settleQueued(
  ctx: Ctx,
  queued: readonly QueuedEnvelope[],
  options: Pick<DigestOptions, "limits" | "enrichers" | "enrichmentBudget">,
): Promise<Settled[]> {
  const optionsByProject = new Map<number, ProjectOptions>();
  const rulesByProject = new Map<number, readonly FingerprintRule[]>();
  const inputs: EnvelopeInput[] = [];
  for (const entry of queued) {
    let project = optionsByProject.get(entry.projectId);
    if (!project) {
      project = await projectOptions(ctx, entry.projectId);
      optionsByProject.set(entry.projectId, project);
    }
    let rules = rulesByProject.get(entry.projectId);
    if (!rules) {
      rules = await fingerprintRules(ctx, entry.projectId);
      rulesByProject.set(entry.projectId, rules);
    }
    inputs.push({
      projectId: entry.projectId,
      keyId: entry.keyId,
      receivedAt: entry.receivedAt,
      body: entry.body,
      options: project,
      rules,
      deferrals: entry.deferrals,
    });
  }
  return runStages(inputs, {
    limits: options.limits,
    enrichers: options.enrichers ?? productionEnrichers(ctx.artifacts),
    budget: options.enrichmentBudget ?? DEFAULT_ENRICHMENT_BUDGET,
    cache: sharedEnrichmentCache,
  });
}

/** Deferred envelopes digested at most at once: few, each may be large. */
const DEFERRED_BATCH = 20;

/**
 * Digests up to `batchSize` queued envelopes: every item is filtered, normalized and stored
 * and its outcome counted in one write transaction — all or nothing, so a crash mid-batch
 * leaves the queue as it was and the batch is done again (how a batch is held, claimed and let
 * go is the queue's: src/core/ports/digest-queue.ts). Deferred envelopes whose wait is over go
 * first. Returns how many envelopes it took.
 *
 * No envelope can hold the queue up: one whose processing throws, or whose rows the database
 * refuses, becomes a dead letter in that same transaction (./write.ts), and the rest
 * of the batch is stored.
 */
export async function digestBatch(ctx: Ctx, options: DigestOptions): Promise<number> {
  const settle = options.settle ?? ((queued: readonly QueuedEnvelope[]) => settleQueued(ctx, queued, options));
  const deferred = await ctx.digestQueue.digestDeferred(DEFERRED_BATCH, settle, ctx.now);
  const batch = await ctx.digestQueue.digestNext(
    {
      size: options.batchSize,
      maxBytes: options.maxBatchBytes ?? DEFAULT_BATCH_BYTES,
      leaveDigestedRows: options.leaveDigestedRows ?? false,
      lookahead: options.settle !== undefined,
    },
    settle,
    ctx.now,
  );
  for (const written of [deferred, batch]) if (written.setAside > 0) options.onSetAside?.(written.setAside);
  // Releases named by the batch's events and sessions exist from now on (after the commit).
  const seen = [...deferred.releases, ...batch.releases];
  if (seen.length > 0) await noteReleases(ctx, seen);
  // The issue changes this batch (or a triage whose own drive failed) wrote: the activity log follows.
  await driveInProcessConsumers(ctx);
  return deferred.taken + batch.taken;
}
