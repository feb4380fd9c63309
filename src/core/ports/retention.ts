/**
 * What retention (src/core/retention/run.ts) deletes, one kind and one bounded step per call:
 * core decides the order, the cut-offs and how long to go on. Implemented by
 * src/db/retention-store.ts, which knows each kind's table, time column and index.
 * Cut-offs are epoch milliseconds whatever unit a kind stores its time in.
 */

/** The projects one pass of retention covers: one project (`=`), all but one (`<>`), or all (null). */
export type RetentionScope = { op: "=" | "<>"; projectId: number } | null;

/** Items each project keeps with a time of their own, deleted project by project in batches. */
export const PROJECT_ITEM_KINDS = [
  "transactions",
  "spans",
  "logs",
  "raw_items",
  "feedback",
  "check_ins",
  "attachments",
  "dead_letters",
] as const;
export type ProjectItemKind = (typeof PROJECT_ITEM_KINDS)[number];

export interface RetentionStore {
  /** The ids of the projects in scope, in order. */
  projectIds(scope: RetentionScope): Promise<number[]>;
  /** Deletes up to `batch` of one project's items of `kind` older than the cut-off; returns how many went. */
  deleteProjectItems(kind: ProjectItemKind, projectId: number, cutoff: number, batch: number): Promise<number>;

  /** Deletes up to `batch` events in scope that belong to no issue and are older than the cut-off; returns how many. */
  deleteEventsWithoutIssue(scope: RetentionScope, cutoff: number, batch: number): Promise<number>;
  /** The issues in scope first seen at or before the cut-off, in id order: only they can hold older events. */
  issuesFirstSeenBy(scope: RetentionScope, cutoff: number): Promise<number[]>;
  /** Deletes up to `batch` events of these issues older than the cut-off; returns how many. */
  deleteIssueEvents(issueIds: readonly number[], cutoff: number, batch: number): Promise<number>;

  /** The issues seen more than `times` times, in id order: only they can hold more events than that. */
  issuesSeenMoreThan(times: number): Promise<number[]>;
  /** Of these issues, those holding more than `max` events, with how many they hold. */
  crowdedIssues(issueIds: readonly number[], max: number): Promise<{ issueId: number; events: number }[]>;
  /** Deletes up to `count` of the issue's oldest events; returns how many went. */
  deleteOldestEvents(issueId: number, count: number): Promise<number>;

  /** Deletes one project's outcome counts of hours before the cut-off. */
  deleteOutcomes(projectId: number, cutoff: number): Promise<void>;
  /** Deletes release health's session counts in scope before the cut-off; returns how many rows went. */
  deleteSessionCounts(scope: RetentionScope, cutoff: number): Promise<number>;
  /** Deletes release health's users and errored sessions in scope before the cut-off; returns how many rows went. */
  deleteSessionMembers(scope: RetentionScope, cutoff: number): Promise<number>;
  /** Deletes the hourly counts of issues in scope before the cut-off. */
  deleteIssueHours(scope: RetentionScope, cutoff: number): Promise<void>;
  /** Deletes the hourly users of issues in scope before the cut-off. */
  deleteIssueHourUsers(scope: RetentionScope, cutoff: number): Promise<void>;
  /** Deletes issue changes in scope older than the cut-off that every outbox consumer has taken. */
  deleteTakenChanges(scope: RetentionScope, cutoff: number): Promise<void>;
  /** Empties the raw bodies of dead letters set aside before the cut-off (they stay listed); returns how many. */
  emptyDeadLetterBodies(cutoff: number): Promise<number>;

  /** Space deletions freed that the file still holds (SQLite's free pages); null where the database reuses it itself. */
  freeSpace(): Promise<{ pages: number; pageBytes: number } | null>;
  /** Gives up to `pages` freed pages back to the file system. */
  givePagesBack(pages: number): Promise<void>;
}
