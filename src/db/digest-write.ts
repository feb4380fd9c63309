import { sql, type Kysely } from "kysely";
import type { DeadLetter } from "../core/deadletters/record";
import type { StoredIds } from "../core/digest/duplicates";
import type { DigestRecords, EventRecord, OutcomeRecord, TransactionRecord } from "../core/digest/records";
import type { BatchTransaction, Deferral, RowFault } from "../core/ports/digest-queue";
import type { IssueStore } from "../core/ports/issues";
import type { ReleaseOrder } from "../core/ports/release-order";
import type { Dialect } from "./connect";
import { recordDeadLetterIn } from "./dead-letter-store";
import { KyselyIssueStore } from "./issue-store";
import { writeOutcomes } from "./outcome-store";
import type { DB } from "./schema";
import { storedEventIds } from "./stored-events";
import { KyselyTelemetryStore } from "./telemetry";

/**
 * Whether a failed write may be the fault of the rows written rather than of the database:
 * PostgreSQL's data exceptions (class 22), integrity violations (23) and program limits (54),
 * SQLite's constraint, size and type errors, and errors thrown by our own code. Anything else
 * (a lost connection, a full disk, a busy lock) would fail for every envelope alike: it ends
 * the batch, which is retried whole, so an outage never turns the queue into dead letters.
 */
export function isRowFault(error: unknown): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? (error as { code: unknown }).code : undefined;
  if (typeof code !== "string") return true;
  if (code.startsWith("SQLITE_")) return /^SQLITE_(CONSTRAINT|TOOBIG|MISMATCH)/.test(code);
  if (/^[0-9A-Z]{5}$/.test(code)) return ["22", "23", "54"].includes(code.slice(0, 2));
  return false;
}

/**
 * A batch's write transaction (src/core/ports/digest-queue.ts): core's write
 * (src/core/digest/write.ts) decides what is written; this writes it through `trx`.
 */
export class KyselyBatchTransaction implements BatchTransaction {
  readonly issues: IssueStore;
  readonly lockRows: boolean;

  constructor(
    private readonly trx: Kysely<DB>,
    private readonly dialect: Dialect,
    /** Must read through `trx` (see KyselyReleaseOrder.within). */
    readonly releaseOrder: ReleaseOrder,
  ) {
    this.lockRows = dialect === "postgres";
    this.issues = new KyselyIssueStore(trx, this.lockRows);
  }

  storedEventIds(events: readonly EventRecord[], transactions: readonly TransactionRecord[]): Promise<StoredIds> {
    return storedEventIds(this.trx, this.dialect, events, transactions);
  }

  async writeRecords(records: DigestRecords): Promise<void> {
    await new KyselyTelemetryStore(this.trx).write(records);
    await writeOutcomes(this.trx, records.outcomes);
  }

  writeOutcomes(outcomes: readonly OutcomeRecord[]): Promise<void> {
    return writeOutcomes(this.trx, outcomes);
  }

  writeDeadLetter(letter: DeadLetter, now: number): Promise<void> {
    return recordDeadLetterIn(this.trx, letter, now);
  }

  async writeDeferrals(deferrals: readonly Deferral[]): Promise<void> {
    await this.trx
      .insertInto("digest_deferred")
      .values(
        deferrals.map(({ letter, deferrals, notBefore }) => ({
          project_id: letter.projectId,
          key_id: letter.keyId,
          received_at: letter.receivedAt,
          body: Buffer.from(letter.body.buffer, letter.body.byteOffset, letter.body.byteLength),
          deferrals,
          not_before: notBefore,
        })),
      )
      .execute();
  }

  async attempt(write: () => Promise<void>): Promise<RowFault | null> {
    await sql`savepoint digest_write`.execute(this.trx);
    try {
      await write();
    } catch (error) {
      await sql`rollback to savepoint digest_write`.execute(this.trx);
      if (!isRowFault(error)) throw error;
      return { error };
    }
    await sql`release savepoint digest_write`.execute(this.trx);
    return null;
  }
}
