import { sql, type Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Ctx } from "../context";
import { isEnvelopeError, parseEnvelope, type EnvelopeLimits } from "../envelope/index";
import { writeOutcomes } from "../outcomes/record";
import { projectOptions, type ProjectOptions } from "../projects/options";
import { digestItem, emptyRows, type DigestRows } from "./items";
import type { FingerprintRule } from "../grouping/index";
import { assignIssues } from "../issues/assign";
import { fingerprintRules } from "../issues/grouping-rules";

export interface DigestOptions {
  /** Envelopes per transaction: large enough to amortize the commit, small enough to keep writes short. */
  batchSize: number;
  limits: EnvelopeLimits;
}

/** Rows per INSERT statement: SQLite allows 32,766 bound parameters, the widest table has 11 columns. */
const INSERT_CHUNK = 500;

async function insertChunks<T extends keyof DB>(
  trx: Kysely<DB>,
  table: T,
  rows: readonly Record<string, unknown>[],
  ignoreConflict?: readonly string[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    // The row types are checked where the rows are built (digest/items.ts); here they pass through.
    let query = trx.insertInto(table).values(chunk as never);
    if (ignoreConflict) query = query.onConflict((oc) => oc.columns(ignoreConflict as never).doNothing());
    await query.execute();
  }
}

/** Adds session counts, summing rows with the same key first (PostgreSQL refuses duplicates in one upsert). */
async function addSessions(trx: Kysely<DB>, rows: DigestRows["sessions"]): Promise<void> {
  const merged = new Map<string, DigestRows["sessions"][number]>();
  for (const r of rows) {
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

/**
 * Digests up to `batchSize` queued envelopes in one write transaction: every item is
 * filtered, normalized and stored, its outcome counted, and the queue rows deleted — all or
 * nothing, so a crash mid-batch leaves the queue as it was and the batch is done again.
 * On PostgreSQL, rows are claimed with SKIP LOCKED so several processes can digest at once.
 * Returns how many envelopes it took.
 */
export async function digestBatch(ctx: Ctx, options: DigestOptions): Promise<number> {
  // On SQLite every transaction begins IMMEDIATE (src/db/connect.ts), so reading the queue
  // and then writing cannot fail on a write from the ingest thread in between.
  return ctx.db.transaction().execute(async (trx) => {
    let select = trx.selectFrom("ingest_queue").select(["id", "project_id", "received_at", "body"]).orderBy("id").limit(options.batchSize);
    if (ctx.dialect === "postgres") select = select.forUpdate().skipLocked();
    const queued = await select.execute();
    if (queued.length === 0) return 0;

    const rows = emptyRows();
    const optionsByProject = new Map<number, ProjectOptions>();
    const rulesByProject = new Map<number, readonly FingerprintRule[]>();
    const txCtx: Ctx = { ...ctx, db: trx };
    for (const entry of queued) {
      let project = optionsByProject.get(entry.project_id);
      if (!project) {
        project = await projectOptions(txCtx, entry.project_id);
        optionsByProject.set(entry.project_id, project);
      }
      let rules = rulesByProject.get(entry.project_id);
      if (!rules) {
        rules = await fingerprintRules(txCtx, entry.project_id);
        rulesByProject.set(entry.project_id, rules);
      }
      try {
        const envelope = parseEnvelope(Buffer.from(entry.body), options.limits);
        const c = { projectId: entry.project_id, receivedAt: entry.received_at, header: envelope.header, options: project, rules, rows };
        for (const item of envelope.items) digestItem(c, item);
      } catch (error) {
        // Stored envelopes were written by accept and parse; one that does not is counted, not retried forever.
        if (!isEnvelopeError(error)) throw error;
        rows.outcomes.push({ projectId: entry.project_id, category: "default", outcome: "invalid", reason: error.reason, quantity: 1, at: entry.received_at });
      }
    }

    await assignIssues(trx, rows.grouped, ctx.now());
    await insertChunks(trx, "events", rows.events, ["project_id", "event_id"]);
    await insertChunks(trx, "transactions", rows.transactions, ["project_id", "event_id"]);
    await insertChunks(trx, "spans", rows.spans);
    await insertChunks(trx, "logs", rows.logs);
    await insertChunks(trx, "feedback", rows.feedback);
    await insertChunks(trx, "check_ins", rows.checkIns);
    await insertChunks(trx, "raw_items", rows.rawItems);
    await addSessions(trx, rows.sessions);
    await writeOutcomes(trx, rows.outcomes);
    const ids = queued.map((q) => q.id);
    for (let i = 0; i < ids.length; i += INSERT_CHUNK) await trx.deleteFrom("ingest_queue").where("id", "in", ids.slice(i, i + INSERT_CHUNK)).execute();
    return queued.length;
  });
}
