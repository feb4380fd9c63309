import { sql } from "kysely";
import type { Ctx } from "../context";

export interface RetentionOptions {
  /** Events, transactions, spans, logs and other stored items older than this many days go. */
  days: number;
  /** Only the newest this-many events of each issue are kept. */
  maxEventsPerIssue: number;
  /** Rows deleted per statement, so no single delete holds the write lock for long. */
  batch: number;
}

export interface RetentionResult {
  deleted: Record<string, number>;
}

const DAY = 86_400_000;

/**
 * Deletes what is past retention. Issue counts (times seen, users, tags) are counters kept
 * on the issue, not derived from stored events, so they stay correct when events go.
 * Deletes run in small batches; on SQLite freed pages are returned to the file system
 * afterwards (incremental vacuum).
 */
export async function runRetention(ctx: Ctx, options: RetentionOptions): Promise<RetentionResult> {
  const cutoffMs = ctx.now() - options.days * DAY;
  const cutoffSeconds = cutoffMs / 1000;
  const deleted: Record<string, number> = {};
  const drain = async (name: string, step: () => Promise<number>) => {
    let total = 0;
    for (;;) {
      const n = await step();
      total += n;
      if (n < options.batch) break;
    }
    deleted[name] = total;
  };
  const byIds = async (table: "events" | "transactions" | "spans" | "logs" | "raw_items" | "feedback" | "check_ins" | "attachments", column: "timestamp" | "received_at" | "created_at", cutoff: number) => {
    const ids = await ctx.db.selectFrom(table).select("id").where(sql.ref<number>(column), "<", cutoff).limit(options.batch).execute();
    if (ids.length === 0) return 0;
    await ctx.db.deleteFrom(table).where("id", "in", ids.map((r) => r.id)).execute();
    return ids.length;
  };

  await drain("events", () => byIds("events", "timestamp", cutoffSeconds));
  await drain("transactions", () => byIds("transactions", "timestamp", cutoffSeconds));
  await drain("spans", () => byIds("spans", "timestamp", cutoffSeconds));
  await drain("logs", () => byIds("logs", "timestamp", cutoffSeconds));
  await drain("raw_items", () => byIds("raw_items", "received_at", cutoffMs));
  await drain("feedback", () => byIds("feedback", "received_at", cutoffMs));
  await drain("check_ins", () => byIds("check_ins", "received_at", cutoffMs));
  await drain("attachments", () => byIds("attachments", "created_at", cutoffMs));
  await ctx.db.deleteFrom("outcomes").where("hour", "<", cutoffMs).execute();
  await ctx.db.deleteFrom("issue_hourly").where("hour", "<", cutoffMs).execute();

  // Per-issue cap: issues holding more than the cap lose their oldest events.
  const crowded = await ctx.db
    .selectFrom("events")
    .select(["issue_id", (eb) => eb.fn.countAll<number>().as("n")])
    .where("issue_id", "is not", null)
    .groupBy("issue_id")
    .having((eb) => eb.fn.countAll(), ">", options.maxEventsPerIssue)
    .execute();
  let capped = 0;
  for (const { issue_id, n } of crowded) {
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
      await ctx.db.deleteFrom("events").where("id", "in", ids.map((r) => r.id)).execute();
      excess -= ids.length;
      capped += ids.length;
    }
  }
  deleted.events_over_cap = capped;

  if (ctx.dialect === "sqlite") await sql`PRAGMA incremental_vacuum`.execute(ctx.db);
  return { deleted };
}
