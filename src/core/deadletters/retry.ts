import type { Ctx } from "../context";
import { conflict } from "../errors";
import { DEAD_LETTER_RETRY_DAYS, retryable } from "./expire";
import { deadLetterInOrg } from "./find";

/**
 * Puts a dead letter's envelope back in the ingest queue, as received, and deletes the dead
 * letter: the digest takes it again (after a fix, say) and stores it, or sets it aside anew.
 * The store never loses the envelope between the two (DeadLetterStore.requeue).
 */
export async function retryDeadLetter({ ctx, input }: { ctx: Ctx; input: { organizationId: number; id: number } }): Promise<void> {
  const letter = await deadLetterInOrg(ctx, input.organizationId, input.id);
  if (!retryable(letter.body))
    throw conflict(`dead letter ${letter.id} is older than ${DEAD_LETTER_RETRY_DAYS} days: its envelope was emptied and cannot be retried`);
  await ctx.deadLetters.requeue(letter);
}
