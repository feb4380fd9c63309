/**
 * The digest's queue: where accepted envelopes wait, and how a batch of them is
 * taken, written and let go, all or nothing. Core (src/core/digest/batch.ts) decides what a
 * batch becomes; the implementation (src/db/digest-queue.ts) decides how it is held: on
 * PostgreSQL claimed with `FOR UPDATE SKIP LOCKED` in the transaction that writes it, on SQLite
 * read from the queue file outside any transaction and written with a progress mark in the main
 * file (docs/decisions/0005-sqlite-queue-file-and-request-path-first.md).
 */
import type { DeadLetter } from "../deadletters/record";
import type { StoredIds } from "../digest/duplicates";
import type { DigestRecords, EventRecord, OutcomeRecord, TransactionRecord } from "../digest/records";
import type { Settled } from "../digest/settled";
import type { IssueStore } from "./issues";
import type { ReleaseOrder } from "./release-order";

/** One envelope as the request path queued it. */
export interface QueuedEnvelope {
  id: number;
  projectId: number;
  keyId: number;
  receivedAt: number;
  body: Uint8Array;
  /** How many times it was deferred already (envelopes from `digest_deferred`); 0 from the queue. */
  deferrals: number;
}

/**
 * What core makes of a batch: CPU work and reads only, never a write. It may be called inside
 * the transaction that holds the batch (PostgreSQL), so it reads through the context's own
 * stores (another connection), never through that transaction.
 */
export type SettleBatch = (queued: readonly QueuedEnvelope[]) => Promise<Settled[]>;

export interface BatchLimits {
  /** Envelopes per batch. */
  size: number;
  /** Body bytes per batch past its first envelope. */
  maxBytes: number;
  /**
   * SQLite: leave the digested rows in the queue file for the request path to delete, so that
   * only one thread writes that file. Without it the digest deletes them itself (the CLI, tests).
   */
  leaveDigestedRows: boolean;
  /**
   * SQLite: start settling the next batch before writing this one, so that a `settle` running
   * in another thread works while this one writes. Without it a batch is read and settled only
   * once the one before it is written.
   */
  lookahead?: boolean;
}

/** What writing a batch did. */
export interface BatchWritten {
  /** Envelopes taken off the queue (stored, set aside or deferred). */
  taken: number;
  /** Of them, how many became dead letters. */
  setAside: number;
  /** The (project, release) pairs the stored events and sessions name. */
  releases: { projectId: number; version: string }[];
}

export const NOTHING_WRITTEN: BatchWritten = { taken: 0, setAside: 0, releases: [] };

export interface DigestQueue {
  /**
   * Takes the next batch in queue order, settles it and writes what it settled — records, dead
   * letters, deferrals and the batch's removal from the queue — in one transaction. A batch
   * another process wrote first is given up and the next one taken. Nothing queued: nothing written.
   */
  digestNext(limits: BatchLimits, settle: SettleBatch, now: () => number): Promise<BatchWritten>;
  /**
   * The same for deferred envelopes whose wait is over (at most `limit`); those another process
   * took meanwhile are left to it. `now` is the clock of both: when a wait is over, and the time
   * written rows get.
   */
  digestDeferred(limit: number, settle: SettleBatch, now: () => number): Promise<BatchWritten>;
}

/** An envelope kept to be digested again (`digest_deferred`). */
export interface Deferral {
  letter: Settled["letter"];
  /** How many times it was deferred, this one included. */
  deferrals: number;
  /** Not digested again before this time. */
  notBefore: number;
}

/** A failed write that the rows written may have caused (src/db/digest-write.ts `isRowFault`). */
export interface RowFault {
  error: unknown;
}

/**
 * A batch's write transaction as core's write (src/core/digest/write.ts) sees it: every read
 * and write goes through that transaction. What is written is core's to decide; this only
 * writes it, and says which failures may be the rows' fault.
 */
export interface BatchTransaction {
  /** Issues, read and written in the transaction (the issue step must see its own writes). */
  issues: IssueStore;
  /** Release first-seen times, read in the transaction. */
  releaseOrder: ReleaseOrder;
  /** Several digesters may write at once: issue rows are locked before their counts move. */
  lockRows: boolean;
  /** Which of these ids their projects already store (locked until the commit where digesters run at once). */
  storedEventIds(events: readonly EventRecord[], transactions: readonly TransactionRecord[]): Promise<StoredIds>;
  /** The records' rows and outcomes, their events' issues already filled in. */
  writeRecords(records: DigestRecords): Promise<void>;
  writeOutcomes(outcomes: readonly OutcomeRecord[]): Promise<void>;
  writeDeadLetter(letter: DeadLetter, now: number): Promise<void>;
  writeDeferrals(deferrals: readonly Deferral[]): Promise<void>;
  /**
   * Runs `write` so that, when it fails, the transaction is back where it was before it:
   * answers the failure when the rows may be its cause, throws any other (an outage fails
   * the batch, which is retried whole), answers null when it succeeded.
   */
  attempt(write: () => Promise<void>): Promise<RowFault | null>;
}
