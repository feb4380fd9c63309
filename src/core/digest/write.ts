import type { DeadLetter } from "../deadletters/record";
import { assignIssues } from "../issues/assign";
import type { BatchTransaction, Deferral } from "../ports/digest-queue";
import { withoutDuplicates } from "./duplicates";
import { emptyRecords, mergeRecords, type DigestRecords, type OutcomeRecord } from "./records";
import type { Settled } from "./settled";

/** An envelope deferred now is digested again this long after, at the earliest. */
export const DEFER_RETRY_MS = 1000;

/** What a settled batch becomes before anything is written: one value, each envelope in exactly one of its parts. */
export interface BatchPlan {
  /** Envelopes whose records are to be stored (or, when the database refuses them, set aside). */
  stored: Settled[];
  /** Envelopes whose processing failed. */
  setAside: DeadLetter[];
  /** Envelopes with an event still being enriched, kept to be digested again. */
  deferred: Deferral[];
}

export function planBatch(settled: readonly Settled[], now: number): BatchPlan {
  const plan: BatchPlan = { stored: [], setAside: [], deferred: [] };
  for (const s of settled) {
    if (s.deferred) plan.deferred.push({ letter: s.letter, deferrals: s.deferrals + 1, notBefore: now + DEFER_RETRY_MS });
    else if (s.failure !== null) plan.setAside.push({ ...s.letter, reason: s.failure });
    else plan.stored.push(s);
  }
  return plan;
}

/** Stores a batch's records; the caller's savepoint makes it all or nothing. */
async function writeRecords(t: BatchTransaction, now: number, batch: DigestRecords): Promise<void> {
  // An event or transaction id its project already stores (an SDK's retry) is counted, never
  // stored or counted in its issue again, nor are the retried transaction's spans.
  const records = withoutDuplicates(batch, await t.storedEventIds(batch.events, batch.transactions));
  // The issue step reads each event record as it is (a record is a grouped event) and fills in
  // its issue, which the store then writes on the event's row.
  const issueOf = await assignIssues(t.issues, records.events, now, t.releaseOrder, t.lockRows);
  for (const r of records.events) r.issueId = issueOf.get(r) ?? null;
  await t.writeRecords(records);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
async function writeByParts(t: BatchTransaction, now: number, only: Settled, error: unknown, setAside: DeadLetter[]): Promise<void> {
  // Duplicates are taken out of the whole envelope first, so its outcomes below already count
  // them; the parts' own check then finds nothing more to drop.
  const records = withoutDuplicates(only.records, await t.storedEventIds(only.records.events, only.records.transactions));
  const outcomes = records.outcomes.map((o) => ({ ...o }));
  const template: OutcomeRecord = {
    projectId: only.letter.projectId,
    category: "",
    outcome: "invalid",
    reason: "",
    quantity: 0,
    at: only.letter.receivedAt,
  };
  // The parts and the envelope's outcomes in one more savepoint: all or nothing of it is kept.
  const fault = await t.attempt(async () => {
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
      if ((await t.attempt(() => writeRecords(t, now, sub))) === null) stored++;
      else countUnstored(outcomes, template, part.category, count);
    }
    if (stored === 0) throw error;
    await t.writeOutcomes(outcomes);
  });
  if (fault) setAside.push({ ...only.letter, reason: `write_failed: ${messageOf(error)}` });
}

/**
 * Writes the group's rows in one go; when that fails for a reason the rows may cause, writes
 * each half again the same way, down to single envelopes, which are written part by part
 * (writeByParts). A batch with no bad envelope costs one write, as before; one bad envelope
 * among n costs about 2·log2(n), and one write per part of it.
 */
async function writeOrBisect(t: BatchTransaction, now: number, group: readonly Settled[], setAside: DeadLetter[]): Promise<void> {
  if (group.length === 0) return;
  const fault = await t.attempt(() => writeRecords(t, now, mergeRecords(group.map((g) => g.records))));
  if (!fault) return;
  const [only] = group;
  if (group.length === 1 && only) return writeByParts(t, now, only, fault.error, setAside);
  const half = Math.ceil(group.length / 2);
  await writeOrBisect(t, now, group.slice(0, half), setAside);
  await writeOrBisect(t, now, group.slice(half), setAside);
}

/**
 * Writes a batch of settled envelopes in the transaction `t` holds: the rows of every envelope
 * that can be stored, a dead letter for each one that cannot, and the deferred envelopes kept.
 * Every envelope is stored, set aside, deferred or at least counted. Returns how many were set aside.
 */
export async function writeBatch(t: BatchTransaction, settled: readonly Settled[], now: number): Promise<number> {
  const { stored, setAside, deferred } = planBatch(settled, now);
  await writeOrBisect(t, now, stored, setAside);
  if (deferred.length > 0) await t.writeDeferrals(deferred);
  for (const letter of setAside) {
    if (!(await t.attempt(() => t.writeDeadLetter(letter, now)))) continue;
    // Even the dead letter is refused (its project was deleted while the envelope waited):
    // counted, so nothing vanishes silently, but not kept.
    const lost: OutcomeRecord = {
      projectId: letter.projectId,
      category: "default",
      outcome: "invalid",
      reason: "dead_letter_refused",
      quantity: 1,
      at: letter.receivedAt,
    };
    await t.writeOutcomes([lost]);
  }
  return setAside.length;
}
