/**
 * How a notification is delivered (decision 0017): inserted once under a stable id, claimed by
 * one sender at a time with a lease (a sender that dies lets another take it up after the
 * lease), every attempt recorded with the state it leaves. Issue alerts (./alerts.ts) and
 * metric alerts (./metric-alerts.ts) are delivered this way, each over its own notifications;
 * implemented over the main database by src/db/delivery-store.ts.
 */

export type NotificationStatus = "pending" | "sent" | "failed" | "not_sent";

/** Where a notification is in its delivery. */
export interface DeliveryState {
  status: NotificationStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  messageId: string | null;
  sentAt: number | null;
}

export interface AttemptRecord {
  notificationId: string;
  attempt: number;
  status: "sent" | "failed" | "not_sent";
  error: string | null;
  at: number;
  /** A web channel's answer: its HTTP status, the start of its body, how long the exchange took. */
  statusCode?: number | null;
  response?: string | null;
  durationMs?: number | null;
}

/** The notification's state after an attempt. */
export interface AttemptOutcome {
  status: NotificationStatus;
  nextAttemptAt: number;
  messageId: string | null;
  sentAt: number | null;
}

/** Notifications of one kind `N` (what is known of one before any attempt) and their delivery. */
export interface DeliveryQueue<N extends { id: string; createdAt: number }> {
  /** Inserts notifications, due at once; one whose id exists already is left as it is. */
  insertNotifications(rows: readonly N[]): Promise<void>;
  /** Whether any notification is due (a read, so an idle sender takes no write lock). */
  anyDue(now: number): Promise<boolean>;
  /** Takes up to `limit` due notifications for `leaseMs` (PostgreSQL: `FOR UPDATE SKIP LOCKED`), oldest due first. */
  claimDue(now: number, limit: number, leaseMs: number): Promise<(N & DeliveryState)[]>;
  /** Records an attempt and the notification's state after it, in one transaction (the lease ends). */
  recordAttempt(attempt: AttemptRecord, next: AttemptOutcome): Promise<void>;
}
