/**
 * Reading the issue-change outbox (docs/decisions/0010-issue-changes-outbox.md): consumer
 * positions and the changes after them. Implemented by src/db/outbox-store.ts; core
 * (src/core/outbox/consume.ts) decides what a consumer does with its changes.
 */
import type { IssueChangeRecord } from "../outbox/changes";
import type { AlertStore } from "./alerts";
import type { UserNotificationStore } from "./user-notifications";

/** One row of an issue's activity log, as the issue page lists it. */
export interface ActivityEntry {
  issueId: number;
  userId: number | null;
  type: string;
  data: Record<string, unknown>;
  at: number;
}

export interface ActivityLog {
  append(entries: readonly ActivityEntry[]): Promise<void>;
}

/**
 * What an in-database consumer writes with: stores bound to the transaction that moves its
 * position, so its effects and its position commit together.
 */
export interface OutboxTxPorts {
  alerts: AlertStore;
  userNotifications: UserNotificationStore;
  activity: ActivityLog;
}

/** Gets a batch of changes and the ports of its transaction; the position moves only if it returns. */
export type ConsumeChanges = (changes: readonly IssueChangeRecord[], ports: OutboxTxPorts) => Promise<void>;

export interface OutboxStore {
  /** The number of the newest change written; 0 before the first. */
  head(): Promise<number>;
  /** Where each of the consumers named stands; one that never ran is absent. */
  positions(consumers: readonly string[]): Promise<Map<string, number>>;
  /**
   * In one transaction: claims the consumer's position (held by another process now: 0 at
   * once), reads up to `batch` changes after it in order, runs `run` on them and moves the
   * position past them. A `run` that throws rolls it all back. Returns how many changes `run`
   * got; 0 when there were none, and then `run` is not called.
   */
  consume(consumer: string, batch: number, run: ConsumeChanges, now: () => number): Promise<number>;
}
