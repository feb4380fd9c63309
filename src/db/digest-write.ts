import { sql, type Kysely } from "kysely";
import type { DeadLetter } from "../core/deadletters/record";
import { withoutDuplicates } from "../core/digest/duplicates";
import { emptyRecords, mergeRecords, type DigestRecords, type OutcomeRecord } from "../core/digest/records";
import type { Settled } from "../core/digest/settled";
import { assignIssues } from "../core/issues/assign";
import { writeOutcomes } from "./outcome-store";
import type { ReleaseOrder } from "../core/ports/release-order";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import { KyselyIssueStore } from "./issue-store";
import { recordDeadLetterIn } from "./dead-letter-store";
import { storedEventIds } from "./stored-events";
import { KyselyTelemetryStore } from "./telemetry";

/** What every write of a batch shares. */
interface WriteContext {
  dialect: Dialect;
  now: number;
  /** Release first-seen times, reading through the batch's transaction. */
  releaseOrder: ReleaseOrder;
}

/** Writes a batch's records: the caller's transaction makes it all or nothing. */
async function writeRecords(trx: Kysely<DB>, w: WriteContext, batch: DigestRecords): Promise<void> {
  // An event or transaction id its project already stores (an SDK's retry) is counted, never
  // stored or counted in its issue again, nor are the retried transaction's spans.
  const records = withoutDuplicates(batch, await storedEventIds(trx, w.dialect, batch.events, batch.transactions));
  // The issue step reads each event record as it is (a record is a grouped event) and fills in
  // its issue, which the telemetry store then writes on the event's row.
  const issueOf = await assignIssues(
    new KyselyIssueStore(trx, w.dialect === "postgres"),
    records.events,
    w.now,
    w.releaseOrder,
    w.dialect === "postgres",
  );
  for (const r of records.events) r.issueId = issueOf.get(r) ?? null;
  await new KyselyTelemetryStore(trx).write(records);
  await writeOutcomes(trx, records.outcomes);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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

/** Runs `write` so that, when it fails, the transaction is back where it was before it. */
async function inSavepoint(trx: Kysely<DB>, write: () => Promise<void>): Promise<void> {
  await sql`savepoint digest_write`.execute(trx);
  try {
    await write();
  } catch (error) {
    await sql`rollback to savepoint digest_write`.execute(trx);
    throw error;
  }
  await sql`release savepoint digest_write`.execute(trx);
}

/**
 * An envelope's records in the parts written apart when the envelope as a whole is refused,
 * each with the outcome category its records are counted in. A session's members go with its
 * counts: the members that overflow a bucket become counts.
 */
const PARTS: readonly { keys: readonly (keyof Omit<DigestRecords, "outcomes">)[]; category: string }[] = [
  { keys: ["events"], category: "error" },
  { keys: ["transactions"], category: "transaction" },
  { keys: ["spans"], category: "span" },
  { keys: ["logs"], category: "log_item" },
  { keys: ["sessions", "sessionMembers"], category: "session" },
  { keys: ["feedback"], category: "feedback" },
  { keys: ["checkIns"], category: "monitor" },
  { keys: ["rawItems"], category: "default" },
];

/**
 * Recounts a part that was not stored: its category's accepted outcomes (a part holds all of
 * the envelope's records of its kind) become invalid / `write_failed`, or `records` of them
 * when none was counted accepted (spans of a transaction).
 */
function countUnstored(outcomes: OutcomeRecord[], template: OutcomeRecord, category: string, records: number): void {
  let moved = 0;
  for (const o of outcomes) {
    if (o.category !== category || o.outcome !== "accepted") continue;
    moved += o.quantity;
    o.quantity = 0;
  }
  outcomes.push({ ...template, category, reason: "write_failed", quantity: moved || records });
}

/**
 * One envelope the database refused as a whole, written part by part (PARTS), so that one item
 * it cannot store does not take the envelope's other items with it (decision 0036): what is
 * refused is counted invalid / `write_failed` in its category, the rest is stored. When no
 * part can be stored the envelope is set aside whole, as before, and can be retried.
 */
async function writeByParts(trx: Kysely<DB>, w: WriteContext, only: Settled, error: unknown, setAside: DeadLetter[]): Promise<void> {
  // Duplicates are taken out of the whole envelope first, so its outcomes below already count
  // them; the parts' own check then finds nothing more to drop.
  const records = withoutDuplicates(only.records, await storedEventIds(trx, w.dialect, only.records.events, only.records.transactions));
  const outcomes = records.outcomes.map((o) => ({ ...o }));
  const template: OutcomeRecord = {
    projectId: only.letter.projectId,
    category: "",
    outcome: "invalid",
    reason: "",
    quantity: 0,
    at: only.letter.receivedAt,
  };
  try {
    // The parts and the envelope's outcomes in one more savepoint: all or nothing of it is kept.
    await inSavepoint(trx, async () => {
      let stored = 0;
      for (const part of PARTS) {
        const sub = emptyRecords();
        let count = 0;
        for (const key of part.keys) {
          const into: unknown[] = sub[key];
          into.push(...records[key]);
          count += records[key].length;
        }
        if (count === 0) continue;
        try {
          await inSavepoint(trx, () => writeRecords(trx, w, sub));
          stored++;
        } catch (partError) {
          if (!isRowFault(partError)) throw partError;
          countUnstored(outcomes, template, part.category, count);
        }
      }
      if (stored === 0) throw error;
      await writeOutcomes(trx, outcomes);
    });
  } catch (failure) {
    if (!isRowFault(failure)) throw failure;
    setAside.push({ ...only.letter, reason: `write_failed: ${messageOf(error)}` });
  }
}

/**
 * Writes the group's rows in one go; when that fails for a reason the rows may cause, writes
 * each half again the same way, down to single envelopes, which are written part by part
 * (writeByParts). A batch with no bad envelope costs one write, as before; one bad envelope
 * among n costs about 2·log2(n), and one write per part of it.
 */
async function writeOrBisect(trx: Kysely<DB>, w: WriteContext, group: readonly Settled[], setAside: DeadLetter[]): Promise<void> {
  if (group.length === 0) return;
  try {
    await inSavepoint(trx, () => writeRecords(trx, w, mergeRecords(group.map((g) => g.records))));
  } catch (error) {
    if (!isRowFault(error)) throw error;
    const [only] = group;
    if (group.length === 1 && only) return writeByParts(trx, w, only, error, setAside);
    const half = Math.ceil(group.length / 2);
    await writeOrBisect(trx, w, group.slice(0, half), setAside);
    await writeOrBisect(trx, w, group.slice(half), setAside);
  }
}

/** An envelope deferred now is digested again this long after, at the earliest. */
export const DEFER_RETRY_MS = 1000;

/** Keeps the envelopes whose enrichment is still running, to be digested again (src/core/digest/batch.ts). */
async function deferEnvelopes(trx: Kysely<DB>, deferred: readonly Settled[], now: number): Promise<void> {
  if (deferred.length === 0) return;
  await trx
    .insertInto("digest_deferred")
    .values(
      deferred.map((s) => ({
        project_id: s.letter.projectId,
        key_id: s.letter.keyId,
        received_at: s.letter.receivedAt,
        body: Buffer.from(s.letter.body.buffer, s.letter.body.byteOffset, s.letter.body.byteLength),
        deferrals: s.deferrals + 1,
        not_before: now + DEFER_RETRY_MS,
      })),
    )
    .execute();
}

/**
 * Writes a batch of settled envelopes in the caller's transaction: the rows of every envelope
 * that can be stored, and a dead letter for each one that cannot. Returns how many were set aside.
 * `releaseOrder` must read through `trx` (see KyselyReleaseOrder.within).
 */
export async function writeSettled(
  trx: Kysely<DB>,
  dialect: Dialect,
  settled: readonly Settled[],
  now: number,
  releaseOrder: ReleaseOrder,
): Promise<number> {
  const setAside: DeadLetter[] = settled.flatMap((s) => (s.failure === null || s.deferred ? [] : [{ ...s.letter, reason: s.failure }]));
  await writeOrBisect(
    trx,
    { dialect, now, releaseOrder },
    settled.filter((s) => s.failure === null && !s.deferred),
    setAside,
  );
  await deferEnvelopes(
    trx,
    settled.filter((s) => s.deferred),
    now,
  );
  for (const letter of setAside) {
    try {
      await inSavepoint(trx, () => recordDeadLetterIn(trx, letter, now));
    } catch (error) {
      if (!isRowFault(error)) throw error;
      // Even the dead letter is refused (its project was deleted while the envelope waited):
      // counted, so nothing vanishes silently, but not kept.
      const lost = {
        projectId: letter.projectId,
        category: "default",
        outcome: "invalid" as const,
        reason: "dead_letter_refused",
        quantity: 1,
        at: letter.receivedAt,
      };
      await writeOutcomes(trx, [lost]);
    }
  }
  return setAside.length;
}
