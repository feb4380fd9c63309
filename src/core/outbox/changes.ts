/**
 * Issue changes, written to the outbox in the transaction that makes them (decision record
 * docs/decisions/0010-issue-changes-outbox.md). Consumers (src/core/outbox/consume.ts) read
 * them in order: alerts, and whatever else must react to an issue being created, regressing
 * or escalating.
 */
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";

export const ISSUE_CHANGE_KINDS = [
  "created",
  "regressed",
  "ignored",
  "escalating",
  "unignored",
  "resolved",
  "unresolved",
  "assigned",
  "unassigned",
  "commented",
  "merged",
  "unmerged",
  // An issue received events in a digest batch without changing state (only in projects with a
  // frequency alert rule: docs/decisions/0019-frequency-conditions.md).
  "seen",
] as const;
export type IssueChangeKind = (typeof ISSUE_CHANGE_KINDS)[number];

export interface NewIssueChange {
  projectId: number;
  issueId: number;
  kind: IssueChangeKind;
  data: Record<string, unknown>;
  /** Who made the change; null for the digest. */
  userId: number | null;
  at: number;
}

/** A change as consumers read it; `id` is stable and unique, for consumers with outside effects to deduplicate with. */
export interface IssueChangeRecord extends NewIssueChange {
  seq: number;
  id: string;
}

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
