import type { Ctx } from "../context";
import type { DeadLetterSummary } from "../ports/dead-letters";

export type { DeadLetterSummary } from "../ports/dead-letters";

/** The newest dead letters of an organization's projects, newest first. */
export async function listDeadLetters({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { organizationId: number; limit?: number };
}): Promise<DeadLetterSummary[]> {
  return ctx.deadLetters.list(input.organizationId, Math.min(Math.max(1, input.limit ?? 100), 500));
}
