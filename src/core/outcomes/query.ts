import type { Ctx } from "../context";
import type { FilteredCount, OutcomeRow } from "../ports/outcomes";

export type { FilteredCount, OutcomeRow } from "../ports/outcomes";

/** A project's outcomes from `since` (ms), oldest hour first. */
export function projectOutcomes(ctx: Pick<Ctx, "outcomes">, projectId: number, since: number): Promise<OutcomeRow[]> {
  return ctx.outcomes.ofProject(projectId, since);
}

/**
 * Error events the inbound filters dropped in these projects since `since` (ms), by reason,
 * largest first: why an empty issue stream is empty (nothing is dropped silently, CONTRIBUTING.md).
 */
export async function filteredErrors(ctx: Pick<Ctx, "outcomes">, projectIds: readonly number[], since: number): Promise<FilteredCount[]> {
  if (projectIds.length === 0) return [];
  const counts = await ctx.outcomes.filteredErrors(projectIds, since);
  return counts.sort((a, b) => b.quantity - a.quantity || a.projectId - b.projectId || a.reason.localeCompare(b.reason));
}
