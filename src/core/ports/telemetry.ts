import type { DigestRecords } from "../digest/records";

/**
 * Where the digest's telemetry goes: events, transactions, spans, logs, session counts,
 * feedback, check-ins and raw items. One method, so that another store (a column store)
 * can implement it without touching the digest. An implementation is bound to the caller's
 * transaction when it is made (src/db/telemetry.ts), so what it writes commits or rolls back
 * with the issue updates, the outcomes and the queue's progress.
 *
 * Issue assignment and outcomes are not telemetry: events arrive with `issueId` already set
 * by the issue step; `outcomes` in the batch are ignored here and written by their own step.
 */
export interface TelemetryStore {
  /**
   * Stores a batch. An event already stored under its (project, event id) is kept as it was,
   * as is a transaction; session counts add to what is stored. Throws when the store refuses
   * a record; the caller decides what to set aside.
   */
  write(batch: Omit<DigestRecords, "outcomes">): Promise<void>;
}
