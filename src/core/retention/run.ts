import type { Ctx } from "../context";
import { findInternalProjectId } from "../selfmon/internal-project";
import { pruneMinuteCounts } from "../issues/window-counts";
import { DEAD_LETTER_RETRY_DAYS } from "../deadletters/expire";
import { PROJECT_ITEM_KINDS, type RetentionScope, type RetentionStore } from "../ports/retention";

export interface RetentionOptions {
  /** Events, transactions, spans, logs and other stored items older than this many days go. */
  days: number;
  /**
   * Days the internal project (Telltale's own errors and traces) keeps its data, in place of
   * `days`: self-monitoring stores far more spans than it is worth keeping for long. Unset, `days`.
   */
  internalDays?: number;
  /** Only the newest this-many events of each issue are kept. */
  maxEventsPerIssue: number;
  /** Rows deleted per statement, so no single delete holds the write lock for long. */
  batch: number;
  /** Days the audit log keeps its entries (its own setting: an audit trail outlives events). Unset, kept. */
  auditDays?: number;
}

export interface RetentionResult {
  deleted: Record<string, number>;
}

const DAY = 86_400_000;

/**
 * Deletes what is past retention. Issue counts (times seen, users, tags) are counters kept
 * on the issue, not derived from stored events, so they stay correct when events go.
 * Deletes run in small batches; where the file keeps freed space (SQLite) it is returned to
 * the file system afterwards (incremental vacuum, a few MiB at a time).
 */
export async function runRetention(ctx: Ctx, options: RetentionOptions): Promise<RetentionResult> {
  const deleted: Record<string, number> = {};
  const internalDays = options.internalDays ?? options.days;
  const internal = internalDays === options.days ? undefined : await findInternalProjectId(ctx);
  if (internal === undefined) {
    await deleteOlderThan(ctx, options, { days: options.days, scope: null }, deleted);
  } else {
    await deleteOlderThan(ctx, options, { days: options.days, scope: { op: "<>", projectId: internal } }, deleted);
    await deleteOlderThan(ctx, options, { days: internalDays, scope: { op: "=", projectId: internal } }, deleted);
  }
  deleted.events_over_cap = await capEventsPerIssue(ctx, options);
  // Not a deletion: the raw bodies of week-old dead letters, which may hold secrets, are emptied.
  deleted.dead_letter_bodies = await ctx.retention.emptyDeadLetterBodies(ctx.now() - DEAD_LETTER_RETRY_DAYS * DAY);
  if (options.auditDays !== undefined) deleted.audit_log = await pruneAuditLog(ctx, options.auditDays, options.batch);
  await giveBackFreePages(ctx.retention);
  return { deleted };
}

/** Bytes given back per step: 1024 of SQLite's 4 KiB pages, 256 of the 16 KiB pages of files made since decision 0035. */
const VACUUM_STEP_BYTES = 4 * 1024 * 1024;
/** Between steps, so that other writers of the main file (the digest, the UI, outcomes) take their turn. */
const VACUUM_PAUSE_MS = 10;

/**
 * SQLite: the freed pages go back to the file system a step at a time. One unbounded `PRAGMA
 * incremental_vacuum` holds the main file's write lock until every freed page is moved, and a
 * step's cost grows with the file (on the queue file, 1024 pages took 150–270 ms under load:
 * docs/benchmarks.md), so after a large deletion one statement could hold every other
 * writer for minutes. Bounded by the steps the pages free at the start need, in case deletions
 * meanwhile keep freeing more.
 */
async function giveBackFreePages(store: RetentionStore): Promise<void> {
  const free = await store.freeSpace();
  if (!free) return;
  const stepPages = Math.max(1, Math.floor(VACUUM_STEP_BYTES / free.pageBytes));
  const steps = Math.ceil(free.pages / stepPages);
  for (let i = 0; i < steps; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, VACUUM_PAUSE_MS));
    await store.givePagesBack(stepPages);
  }
}

/** Calls `step` (one bounded batch) until it deletes fewer than `batch`; returns how many went. */
async function inBatches(batch: number, step: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
}

/** Deletes the scope's items older than `days`, adding the counts to `deleted`. */
async function deleteOlderThan(
  ctx: Ctx,
  options: RetentionOptions,
  pass: { days: number; scope: RetentionScope },
  deleted: Record<string, number>,
): Promise<void> {
  const store = ctx.retention;
  const cutoff = ctx.now() - pass.days * DAY;
  const { scope } = pass;
  // Project by project: a scope of "every project but one" has no index to use, and would
  // read whole tables every hour.
  const projectIds = await store.projectIds(scope);
  const add = (kind: string, n: number) => (deleted[kind] = (deleted[kind] ?? 0) + n);

  add("events", await deleteOldEvents(store, scope, cutoff, options.batch));
  // Dead letters (last) go with the events they might have been, body included (docs/decisions/0006-dead-letters.md).
  for (const kind of PROJECT_ITEM_KINDS) {
    let total = 0;
    for (const projectId of projectIds)
      total += await inBatches(options.batch, () => store.deleteProjectItems(kind, projectId, cutoff, options.batch));
    add(kind, total);
  }
  for (const projectId of projectIds) await store.deleteOutcomes(projectId, cutoff);
  // Release health: session counts per hour, and their users and errored sessions per day or hour.
  add("session_counts", await store.deleteSessionCounts(scope, cutoff));
  add("session_distinct", await store.deleteSessionMembers(scope, cutoff));
  await store.deleteIssueHours(scope, cutoff);
  await store.deleteIssueHourUsers(scope, cutoff);
  // Issue changes go once every consumer has taken them.
  await store.deleteTakenChanges(scope, cutoff);
  // Minute buckets live a day whatever the retention (every project's alike).
  await pruneMinuteCounts(ctx, ctx.now());
}

/** Issue ids per statement when events are looked up issue by issue (each id is one index seek). */
const ISSUE_CHUNK = 400;

/**
 * Events older than the cutoff, found issue by issue instead of by reading every stored event:
 * scanning them once an hour took 6.6 s of the digest thread at 1 M events
 * (docs/benchmarks.md). An issue's `first_seen` is its oldest event's time (the minimum over
 * its events and the issues merged into it, which retention never raises), so only issues
 * first seen before the cutoff can hold such an event; events without an issue come first.
 */
async function deleteOldEvents(store: RetentionStore, scope: RetentionScope, cutoff: number, batch: number): Promise<number> {
  let total = await inBatches(batch, () => store.deleteEventsWithoutIssue(scope, cutoff, batch));
  const issueIds = await store.issuesFirstSeenBy(scope, cutoff);
  for (let i = 0; i < issueIds.length; i += ISSUE_CHUNK) {
    const chunk = issueIds.slice(i, i + ISSUE_CHUNK);
    total += await inBatches(batch, () => store.deleteIssueEvents(chunk, cutoff, batch));
  }
  return total;
}

/**
 * Issues holding more than the cap lose their oldest events; returns how many went. An issue's
 * `times_seen` counts every event it received and never falls when events are deleted, so
 * only issues seen more often than the cap can hold more; only their events are counted.
 */
async function capEventsPerIssue(ctx: Ctx, options: RetentionOptions): Promise<number> {
  const store = ctx.retention;
  const loud = await store.issuesSeenMoreThan(options.maxEventsPerIssue);
  let capped = 0;
  for (let i = 0; i < loud.length; i += ISSUE_CHUNK) {
    const crowded = await store.crowdedIssues(loud.slice(i, i + ISSUE_CHUNK), options.maxEventsPerIssue);
    for (const { issueId, events } of crowded) {
      let excess = events - options.maxEventsPerIssue;
      while (excess > 0) {
        const n = await store.deleteOldestEvents(issueId, Math.min(excess, options.batch));
        if (n === 0) break;
        excess -= n;
        capped += n;
      }
    }
  }
  return capped;
}

/** The audit log's only deletion path (src/core/ports/audit.ts): entries past their own retention, in batches. */
async function pruneAuditLog(ctx: Ctx, days: number, batch: number): Promise<number> {
  const before = ctx.now() - days * DAY;
  return inBatches(batch, () => ctx.audit.prune(before, batch));
}
