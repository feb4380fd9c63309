import type { Ctx } from "../context";
import { notFound } from "../errors";

/** A dead letter of one of the organization's projects; any other id is reported missing, so ids do not leak. */
export async function deadLetterInOrg(ctx: Ctx, organizationId: number, id: number) {
  const row = await ctx.db
    .selectFrom("dead_letters")
    .innerJoin("projects", "projects.id", "dead_letters.project_id")
    .select(["dead_letters.id", "dead_letters.project_id", "dead_letters.key_id", "dead_letters.received_at", "dead_letters.body"])
    .where("dead_letters.id", "=", id)
    .where("projects.organization_id", "=", organizationId)
    .executeTakeFirst();
  if (!row) throw notFound(`dead letter ${id} does not exist`);
  return row;
}
