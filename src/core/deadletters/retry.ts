import type { Ctx } from "../context";
import { conflict } from "../errors";
import { DEAD_LETTER_RETRY_DAYS, retryable } from "./expire";
import { deadLetterInOrg } from "./find";

/**
 * Puts a dead letter's envelope back in the ingest queue, as received, and deletes the dead
 * letter: the digest takes it again (after a fix, say) and stores it, or sets it aside anew.
 * On PostgreSQL both happen in one transaction. On SQLite the queue is a file of its own, so
 * the envelope is queued first and the dead letter deleted after: a crash between the two
 * leaves the dead letter in place as well, never loses the envelope.
 */
export async function retryDeadLetter({ ctx, input }: { ctx: Ctx; input: { organizationId: number; id: number } }): Promise<void> {
  const row = await deadLetterInOrg(ctx, input.organizationId, input.id);
  if (!retryable(row.body))
    throw conflict(`dead letter ${row.id} is older than ${DEAD_LETTER_RETRY_DAYS} days: its envelope was emptied and cannot be retried`);
  const queued = {
    project_id: row.project_id,
    key_id: row.key_id,
    endpoint: "envelope" as const,
    received_at: row.received_at,
    body: row.body,
  };
  if (ctx.dialect === "postgres") {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto("ingest_queue").values(queued).execute();
      await trx.deleteFrom("dead_letters").where("id", "=", row.id).execute();
    });
    return;
  }
  await ctx.queue.insertInto("ingest_queue").values(queued).execute();
  await ctx.db.deleteFrom("dead_letters").where("id", "=", row.id).execute();
}
