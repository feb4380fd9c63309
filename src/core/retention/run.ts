import { sql } from "kysely";
import type { Ctx } from "../context";
import { freePages, pageBytes, vacuumPages } from "../../db/vacuum";
import { findInternalProjectId } from "../selfmon/internal-project";
import { pruneMinuteCounts } from "../issues/window-counts";
import { DEAD_LETTER_RETRY_DAYS } from "../deadletters/expire";
import { emptyDeadLetterBodies } from "../../db/dead-letter-bodies";

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
 * Deletes run in small batches; on SQLite freed pages are returned to the file system
 * afterwards (incremental vacuum, a few MiB at a time).
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
  deleted.dead_letter_bodies = await emptyDeadLetterBodies(ctx.db, ctx.dialect, ctx.now() - DEAD_LETTER_RETRY_DAYS * DAY);
  if (options.auditDays !== undefined) deleted.audit_log = await pruneAuditLog(ctx, options.auditDays, options.batch);
  if (ctx.dialect === "sqlite") await giveBackFreePages(ctx);
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
async function giveBackFreePages(ctx: Ctx): Promise<void> {
  const stepPages = Math.max(1, Math.floor(VACUUM_STEP_BYTES / (await pageBytes(ctx.db))));
  const steps = Math.ceil((await freePages(ctx.db)) / stepPages);
  for (let i = 0; i < steps; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, VACUUM_PAUSE_MS));
    await vacuumPages(ctx.db, stepPages);
  }
}

/** The projects one pass of retention covers: one project (`=`), all but one (`<>`), or all (null). */
type Scope = { op: "=" | "<>"; projectId: number } | null;

/** Deletes the scope's items older than `days`, adding the counts to `deleted`. */
async function deleteOlderThan(
  ctx: Ctx,
  options: RetentionOptions,
  pass: { days: number; scope: Scope },
  deleted: Record<string, number>,
): Promise<void> {
  const cutoffMs = ctx.now() - pass.days * DAY;
  const cutoffSeconds = cutoffMs / 1000;
  const { scope } = pass;
  // Project by project, each through its table's (project_id, time) index (migration 0034): a
  // scope of "every project but one" has no index to use, and read whole tables every hour.
  let inScope = ctx.db.selectFrom("projects").select("id");
  if (scope) inScope = inScope.where("id", scope.op, scope.projectId);
  const projectIds = (await inScope.orderBy("id").execute()).map((r) => r.id);
  const byIds = async (
    table: "transactions" | "spans" | "logs" | "raw_items" | "feedback" | "check_ins" | "attachments" | "dead_letters",
    column: "timestamp" | "received_at" | "created_at",
    cutoff: number,
  ) => {
    let total = 0;
    for (const projectId of projectIds) {
      for (;;) {
        const ids = await ctx.db
          .selectFrom(table)
          .select("id")
          .where("project_id", "=", projectId)
          .where(sql.ref<number>(column), "<", cutoff)
          .limit(options.batch)
          .execute();
        if (ids.length > 0)
          await ctx.db
            .deleteFrom(table)
            .where(
              "id",
              "in",
              ids.map((r) => r.id),
            )
            .execute();
        total += ids.length;
        if (ids.length < options.batch) break;
      }
    }
    deleted[table] = (deleted[table] ?? 0) + total;
  };

  deleted.events = (deleted.events ?? 0) + (await deleteOldEvents(ctx, scope, cutoffMs, options.batch));
  await byIds("transactions", "timestamp", cutoffSeconds);
  await byIds("spans", "timestamp", cutoffSeconds);
  await byIds("logs", "timestamp", cutoffSeconds);
  await byIds("raw_items", "received_at", cutoffMs);
  await byIds("feedback", "received_at", cutoffMs);
  await byIds("check_ins", "received_at", cutoffMs);
  await byIds("attachments", "created_at", cutoffMs);
  // Dead letters go with the events they might have been, body included (docs/decisions/0006-dead-letters.md).
  await byIds("dead_letters", "created_at", cutoffMs);
  // Outcomes are found through their primary key, which starts with (project_id, hour).
  for (const projectId of projectIds)
    await ctx.db.deleteFrom("outcomes").where("project_id", "=", projectId).where("hour", "<", cutoffMs).execute();
  let hourly = ctx.db.deleteFrom("issue_hourly").where("hour", "<", cutoffMs);
  let hourUsers = ctx.db.deleteFrom("issue_hour_users").where("hour", "<", cutoffMs);
  // Release health: session counts per hour, and their users and errored sessions per day or hour.
  let sessionCounts = ctx.db.deleteFrom("session_counts").where("hour", "<", cutoffMs);
  let sessionMembers = ctx.db.deleteFrom("session_distinct").where("bucket", "<", cutoffMs);
  // Issue changes go once every consumer has taken them (the outbox keeps what one still owes).
  const taken = await ctx.db
    .selectFrom("outbox_positions")
    .select((eb) => eb.fn.min<number | string | null>("seq").as("seq"))
    .executeTakeFirst();
  let changes = ctx.db.deleteFrom("issue_changes").where("created_at", "<", cutoffMs);
  if (taken?.seq !== null && taken?.seq !== undefined) changes = changes.where("seq", "<=", Number(taken.seq));
  if (scope) {
    sessionCounts = sessionCounts.where("project_id", scope.op, scope.projectId);
    sessionMembers = sessionMembers.where("project_id", scope.op, scope.projectId);
    const projectIssues = ctx.db.selectFrom("issues").select("id").where("project_id", "=", scope.projectId);
    hourly = hourly.where("issue_id", scope.op === "=" ? "in" : "not in", projectIssues);
    hourUsers = hourUsers.where("issue_id", scope.op === "=" ? "in" : "not in", projectIssues);
    changes = changes.where("project_id", scope.op, scope.projectId);
  }
  deleted.session_counts = (deleted.session_counts ?? 0) + Number((await sessionCounts.executeTakeFirst()).numDeletedRows);
  deleted.session_distinct = (deleted.session_distinct ?? 0) + Number((await sessionMembers.executeTakeFirst()).numDeletedRows);
  await hourly.execute();
  await hourUsers.execute();
  await changes.execute();
  // Minute buckets live a day whatever the retention (every project's alike).
  await pruneMinuteCounts(ctx, ctx.now());
}

/** Issue ids per statement when events are looked up issue by issue (each id is one index seek). */
const ISSUE_CHUNK = 400;

async function deleteEvents(ctx: Ctx, ids: readonly { id: number }[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db
    .deleteFrom("events")
    .where(
      "id",
      "in",
      ids.map((r) => r.id),
    )
    .execute();
}

/** Deletes up to `batch` events the query selects, until it selects fewer; returns how many went. */
async function deleteSelected(ctx: Ctx, select: () => Promise<{ id: number }[]>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await select();
    await deleteEvents(ctx, ids);
    total += ids.length;
    if (ids.length < batch) return total;
  }
}

/**
 * Events older than the cutoff, found issue by issue through the index on (issue_id,
 * timestamp) instead of by reading every stored event: the events table has no index on time
 * alone, and scanning it once an hour took 6.6 s of the digest thread at 1 M events
 * (docs/benchmarks.md). An issue's `first_seen` is its oldest event's time (the minimum over
 * its events and the issues merged into it, which retention never raises), so only issues
 * first seen before the cutoff can hold such an event; events without an issue come first.
 */
async function deleteOldEvents(ctx: Ctx, scope: Scope, cutoffMs: number, batch: number): Promise<number> {
  const cutoffSeconds = cutoffMs / 1000;
  let total = await deleteSelected(
    ctx,
    () => {
      let q = ctx.db.selectFrom("events").select("id").where("issue_id", "is", null).where("timestamp", "<", cutoffSeconds);
      if (scope) q = q.where("project_id", scope.op, scope.projectId);
      return q.limit(batch).execute();
    },
    batch,
  );
  let candidates = ctx.db
    .selectFrom("issues")
    .select("id")
    // `first_seen` is the event time in whole milliseconds, rounded: an event just before the cutoff may round onto it.
    .where("first_seen", "<=", cutoffMs);
  if (scope) candidates = candidates.where("project_id", scope.op, scope.projectId);
  const issueIds = (await candidates.orderBy("id").execute()).map((r) => r.id);
  for (let i = 0; i < issueIds.length; i += ISSUE_CHUNK) {
    const chunk = issueIds.slice(i, i + ISSUE_CHUNK);
    total += await deleteSelected(
      ctx,
      () =>
        ctx.db
          .selectFrom("events")
          .select("id")
          .where("issue_id", "in", chunk)
          .where("timestamp", "<", cutoffSeconds)
          .limit(batch)
          .execute(),
      batch,
    );
  }
  return total;
}

/**
 * Issues holding more than the cap lose their oldest events; returns how many went. An issue's
 * `times_seen` counts every event it received and never falls when events are deleted, so
 * only issues seen more often than the cap can hold more; their events are counted through
 * the index on issue_id rather than by grouping every stored event.
 */
async function capEventsPerIssue(ctx: Ctx, options: RetentionOptions): Promise<number> {
  const loud = await ctx.db.selectFrom("issues").select("id").where("times_seen", ">", options.maxEventsPerIssue).orderBy("id").execute();
  let capped = 0;
  for (let i = 0; i < loud.length; i += ISSUE_CHUNK) {
    const crowded = await ctx.db
      .selectFrom("events")
      .select(["issue_id", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where(
        "issue_id",
        "in",
        loud.slice(i, i + ISSUE_CHUNK).map((r) => r.id),
      )
      .groupBy("issue_id")
      .having((eb) => eb.fn.countAll(), ">", options.maxEventsPerIssue)
      .execute();
    for (const { issue_id, n } of crowded) {
      if (issue_id === null) continue;
      let excess = Number(n) - options.maxEventsPerIssue;
      while (excess > 0) {
        const ids = await ctx.db
          .selectFrom("events")
          .select("id")
          .where("issue_id", "=", issue_id)
          .orderBy("timestamp", "asc")
          .orderBy("id", "asc")
          .limit(Math.min(excess, options.batch))
          .execute();
        if (ids.length === 0) break;
        await deleteEvents(ctx, ids);
        excess -= ids.length;
        capped += ids.length;
      }
    }
  }
  return capped;
}

/** The audit log's only deletion path (src/core/ports/audit.ts): entries past their own retention, in batches. */
async function pruneAuditLog(ctx: Ctx, days: number, batch: number): Promise<number> {
  const before = ctx.now() - days * DAY;
  let total = 0;
  for (;;) {
    const n = await ctx.audit.prune(before, batch);
    total += n;
    if (n < batch) return total;
  }
}
