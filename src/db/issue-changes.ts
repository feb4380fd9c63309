import type { Kysely } from "kysely";
import type { NewIssueChange } from "../core/outbox/changes";
import type { DB } from "./schema";

/**
 * Writes changes inside `trx`, numbered after every change already committed. The counter row
 * is updated here and stays locked until `trx` ends, so a second writer waits for the first to
 * commit before it takes its numbers: numbers become visible in order and without gaps (a
 * rolled-back writer gives its numbers back), which lets consumers keep a single position.
 * Call it late in the transaction: the wait lasts from here to the commit.
 */
export async function writeIssueChanges(trx: Kysely<DB>, changes: readonly NewIssueChange[]): Promise<void> {
  if (changes.length === 0) return;
  const counter = await trx
    .updateTable("outbox_counter")
    .set((eb) => ({ seq: eb("seq", "+", changes.length) }))
    .where("id", "=", 1)
    .returning("seq")
    .executeTakeFirstOrThrow();
  const first = Number(counter.seq) - changes.length + 1;
  const rows = changes.map((c, i) => ({
    seq: first + i,
    project_id: c.projectId,
    issue_id: c.issueId,
    kind: c.kind,
    data: JSON.stringify(c.data),
    user_id: c.userId,
    created_at: c.at,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await trx
      .insertInto("issue_changes")
      .values(rows.slice(i, i + 500))
      .execute();
}
