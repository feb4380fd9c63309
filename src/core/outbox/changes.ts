/**
 * Issue changes, written to the outbox in the transaction that makes them (decision record
 * docs/decisions/0010-issue-changes-outbox.md; the writing is src/db/issue-changes.ts).
 * Consumers (src/core/outbox/consume.ts) read them in order: alerts, and whatever else must
 * react to an issue being created, regressing or escalating.
 */
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
