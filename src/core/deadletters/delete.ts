import type { Ctx } from "../context";
import { deadLetterInOrg } from "./find";

/** Deletes a dead letter for good, body and all. */
export async function deleteDeadLetter({ ctx, input }: { ctx: Ctx; input: { organizationId: number; id: number } }): Promise<void> {
  const letter = await deadLetterInOrg(ctx, input.organizationId, input.id);
  await ctx.deadLetters.delete(letter.id);
}
