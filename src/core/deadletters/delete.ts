import type { Ctx } from "../context";
import { deadLetterInOrg } from "./find";

/** Deletes a dead letter for good, body and all. */
export async function deleteDeadLetter({ ctx, input }: { ctx: Ctx; input: { organizationId: number; id: number } }): Promise<void> {
  const row = await deadLetterInOrg(ctx, input.organizationId, input.id);
  await ctx.db.deleteFrom("dead_letters").where("id", "=", row.id).execute();
}
