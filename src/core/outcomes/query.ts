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
