import { sql, type Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Ctx } from "../context";
import { recordDeadLetter, type DeadLetter } from "../deadletters/record";
import { assignIssues } from "../issues/assign";
import { writeOutcomes } from "../outcomes/record";
import { emptyRows, type DigestRows } from "./items";
import { storableRow } from "./storable";

/** Rows per INSERT statement: SQLite allows 32,766 bound parameters, the widest table has 11 columns. */
const INSERT_CHUNK = 500;

async function insertChunks<T extends keyof DB>(
  trx: Kysely<DB>,
  table: T,
  rows: readonly Record<string, unknown>[],
  ignoreConflict?: readonly string[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK).map(storableRow);
    // The row types are checked where the rows are built (digest/items.ts); here they pass through.
    let query = trx.insertInto(table).values(chunk as never);
    if (ignoreConflict) query = query.onConflict((oc) => oc.columns(ignoreConflict as never).doNothing());
    await query.execute();
  }
}

/** Adds session counts, summing rows with the same key first (PostgreSQL refuses duplicates in one upsert). */
async function addSessions(trx: Kysely<DB>, rows: DigestRows["sessions"]): Promise<void> {
  const merged = new Map<string, DigestRows["sessions"][number]>();
  for (const row of rows) {
    const r = storableRow(row);
    const key = `${r.project_id}\u0000${r.hour}\u0000${r.release}\u0000${r.environment}\u0000${r.status}`;
    const prev = merged.get(key);
    if (prev) prev.quantity += r.quantity;
    else merged.set(key, { ...r });
  }
  const all = [...merged.values()];
  for (let i = 0; i < all.length; i += INSERT_CHUNK) {
    await trx
      .insertInto("session_counts")
      .values(all.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) =>
        oc.columns(["project_id", "hour", "release", "environment", "status"]).doUpdateSet({ quantity: sql`session_counts.quantity + excluded.quantity` }),
      )
      .execute();
  }
}

/** Writes a batch's rows: the caller's transaction makes it all or nothing. */
async function writeRows(trx: Kysely<DB>, dialect: Ctx["dialect"], rows: DigestRows, now: number): Promise<void> {
  await assignIssues(trx, rows.grouped, now, dialect === "postgres");
  await insertChunks(trx, "events", rows.events, ["project_id", "event_id"]);
  await insertChunks(trx, "transactions", rows.transactions, ["project_id", "event_id"]);
  await insertChunks(trx, "spans", rows.spans);
  await insertChunks(trx, "logs", rows.logs);
  await insertChunks(trx, "feedback", rows.feedback);
  await insertChunks(trx, "check_ins", rows.checkIns);
  await insertChunks(trx, "raw_items", rows.rawItems);
  await addSessions(trx, rows.sessions);
  await writeOutcomes(trx, rows.outcomes);
}

/** One queued envelope after the CPU stages: its rows, or why it is set aside. */
export interface Settled {
  rows: DigestRows;
  /** Set when processing threw: the envelope becomes a dead letter and its rows are not written. */
  failure: string | null;
  letter: Omit<DeadLetter, "reason">;
}

function merged(group: readonly Settled[]): DigestRows {
  const all = emptyRows();
  for (const { rows } of group) {
    for (const key of Object.keys(all) as (keyof DigestRows)[]) {
      const into: unknown[] = all[key];
      for (const row of rows[key]) into.push(row);
    }
  }
  return all;
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
 * Writes the group's rows in one go; when that fails for a reason the rows may cause, writes
 * each half again the same way, down to single envelopes, which are set aside. A batch with
 * no bad envelope costs one write, as before; one bad envelope among n costs about 2·log2(n).
 */
async function writeOrBisect(trx: Kysely<DB>, dialect: Ctx["dialect"], group: readonly Settled[], now: number, setAside: DeadLetter[]): Promise<void> {
  if (group.length === 0) return;
  try {
    await inSavepoint(trx, () => writeRows(trx, dialect, merged(group), now));
  } catch (error) {
    if (!isRowFault(error)) throw error;
    const [only] = group;
    if (group.length === 1 && only) return void setAside.push({ ...only.letter, reason: `write_failed: ${messageOf(error)}` });
    const half = Math.ceil(group.length / 2);
    await writeOrBisect(trx, dialect, group.slice(0, half), now, setAside);
    await writeOrBisect(trx, dialect, group.slice(half), now, setAside);
  }
}

/**
 * Writes a batch of settled envelopes in the caller's transaction: the rows of every envelope
 * that can be stored, and a dead letter for each one that cannot. Returns how many were set aside.
 */
export async function writeSettled(trx: Kysely<DB>, dialect: Ctx["dialect"], settled: readonly Settled[], now: number): Promise<number> {
  const setAside: DeadLetter[] = settled.flatMap((s) => (s.failure === null ? [] : [{ ...s.letter, reason: s.failure }]));
  await writeOrBisect(trx, dialect, settled.filter((s) => s.failure === null), now, setAside);
  for (const letter of setAside) {
    try {
      await inSavepoint(trx, () => recordDeadLetter(trx, letter, now));
    } catch (error) {
      if (!isRowFault(error)) throw error;
      // Even the dead letter is refused (its project was deleted while the envelope waited):
      // counted, so nothing vanishes silently, but not kept.
      const lost = { projectId: letter.projectId, category: "default", outcome: "invalid" as const, reason: "dead_letter_refused", quantity: 1, at: letter.receivedAt };
      await writeOutcomes(trx, [lost]);
    }
  }
  return setAside.length;
}
