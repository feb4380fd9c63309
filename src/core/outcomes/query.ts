import type { Ctx } from "../context";

export interface OutcomeRow {
  hour: number;
  category: string;
  outcome: string;
  reason: string;
  quantity: number;
}

/** A project's outcomes from `since` (ms), oldest hour first. */
export function projectOutcomes(ctx: Ctx, projectId: number, since: number): Promise<OutcomeRow[]> {
  return ctx.db
    .selectFrom("outcomes")
    .select(["hour", "category", "outcome", "reason", "quantity"])
    .where("project_id", "=", projectId)
    .where("hour", ">=", since)
    .orderBy("hour")
    .orderBy("category")
    .orderBy("outcome")
    .orderBy("reason")
    .execute();
}

export interface FilteredCount {
  projectId: number;
  reason: string;
  quantity: number;
}

/**
 * Error events the inbound filters dropped in these projects since `since` (ms), by reason,
 * largest first: why an empty issue stream is empty (nothing is dropped silently, CONTRIBUTING.md).
 */
export async function filteredErrors(ctx: Ctx, projectIds: readonly number[], since: number): Promise<FilteredCount[]> {
  if (projectIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom("outcomes")
    .select(["project_id", "reason"])
    .select((eb) => eb.fn.sum<number | string>("quantity").as("quantity"))
    .where("project_id", "in", projectIds)
    .where("category", "=", "error")
    .where("outcome", "=", "filtered")
    .where("hour", ">=", since)
    .groupBy(["project_id", "reason"])
    .execute();
  // PostgreSQL returns sum(bigint) as a numeric string.
  return rows
    .map((r) => ({ projectId: r.project_id, reason: r.reason, quantity: Number(r.quantity) }))
    .sort((a, b) => b.quantity - a.quantity || a.projectId - b.projectId || a.reason.localeCompare(b.reason));
}
