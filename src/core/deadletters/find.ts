import type { Ctx } from "../context";
import { notFound } from "../errors";
import type { HeldDeadLetter } from "../ports/dead-letters";

/** A dead letter of one of the organization's projects; any other id is reported missing, so ids do not leak. */
export async function deadLetterInOrg(ctx: Ctx, organizationId: number, id: number): Promise<HeldDeadLetter> {
  const letter = await ctx.deadLetters.find(organizationId, id);
  if (!letter) throw notFound(`dead letter ${id} does not exist`);
  return letter;
}
