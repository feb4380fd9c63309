import type { Generated } from "kysely";

/**
 * The delivery columns every notification table has (issue alerts: migrations 0024 and 0025;
 * metric alerts: 0027), which src/db/delivery-store.ts reads and writes for each of them.
 */
export interface DeliveryColumns {
  /** Stable: made from what the notification is about, so one made twice is inserted once. */
  id: string;
  /** `pending`, `sent`, `failed` (out of tries) or `not_sent` (no SMTP server configured). */
  status: string;
  attempts: number;
  next_attempt_at: number;
  /** A sender holds it until then (its lease); after that another may take it again. */
  claimed_until: number | null;
  last_error: string | null;
  message_id: string | null;
  sent_at: number | null;
  created_at: number;
}

/** One attempt to deliver a notification, in the attempts table beside each notification table. */
export interface AttemptColumns {
  id: Generated<number>;
  notification_id: string;
  attempt: number;
  /** `sent`, `failed` or `not_sent`. */
  status: string;
  error: string | null;
  at: number;
}
