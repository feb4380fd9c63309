/**
 * Dead letters: envelopes the digest set aside (docs/decisions/0006-dead-letters.md), listed
 * for an organization, retried into the ingest queue or deleted. Implemented over the main
 * database (and the queue) by src/db/dead-letter-store.ts.
 */
import type { OutcomeCount } from "../outcomes/record";

/** A dead letter as it is stored: its texts already cut to size, its excerpt scrubbed. */
export interface NewDeadLetter {
  projectId: number;
  keyId: number;
  receivedAt: number;
  createdAt: number;
  /** The item types as far as the envelope parsed, comma-separated. */
  itemTypes: string;
  size: number;
  reason: string;
  excerpt: string;
  /** The envelope as received, for retry only; never shown. */
  body: Uint8Array;
}

/** What a page shows of a dead letter: never its body, only the scrubbed excerpt. */
export interface DeadLetterSummary {
  id: number;
  projectSlug: string;
  itemTypes: string[];
  size: number;
  reason: string;
  excerpt: string;
  receivedAt: number;
  createdAt: number;
  /** False once its raw body was emptied (src/core/deadletters/expire.ts). */
  retryable: boolean;
}

/** A dead letter with what retrying it needs. */
export interface HeldDeadLetter {
  id: number;
  projectId: number;
  keyId: number;
  receivedAt: number;
  body: Uint8Array;
}

export interface DeadLetterStore {
  /** Stores the dead letter and adds `outcomes` to the counts, in one transaction. */
  record(letter: NewDeadLetter, outcomes: readonly OutcomeCount[]): Promise<void>;
  /** The newest dead letters of the organization's projects, newest first, at most `limit`. */
  list(organizationId: number, limit: number): Promise<DeadLetterSummary[]>;
  /** The dead letter if it belongs to one of the organization's projects; null otherwise. */
  find(organizationId: number, id: number): Promise<HeldDeadLetter | null>;
  /**
   * Queues the envelope again as received (endpoint "envelope") and deletes the dead letter.
   * Where queue and dead letters share a database, in one transaction; where they do not
   * (SQLite's queue file), queued first: a crash between the two keeps the dead letter too,
   * never loses the envelope.
   */
  requeue(letter: HeldDeadLetter): Promise<void>;
  delete(id: number): Promise<void>;
}
