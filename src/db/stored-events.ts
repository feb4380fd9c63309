import { sql, type Kysely } from "kysely";
import { eventKey, type StoredIds } from "../core/digest/duplicates";
import type { EventRecord, TransactionRecord } from "../core/digest/records";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/** Ids asked per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** Namespaces the digest's advisory locks (the first key of PostgreSQL's two-key form): "dupe". */
const EVENT_ID_LOCKS = 0x64757065;

/** Ids by project, each once. */
function byProject(records: readonly { projectId: number; eventId: string }[]): Map<number, string[]> {
  const sets = new Map<number, Set<string>>();
  for (const r of records) {
    let ids = sets.get(r.projectId);
    if (!ids) sets.set(r.projectId, (ids = new Set()));
    ids.add(r.eventId);
  }
  return new Map([...sets].map(([projectId, ids]) => [projectId, [...ids]]));
}

/** Which of these ids `table` stores, by its (project_id, event_id) unique key: keys by eventKey. */
async function storedIn(
  trx: Kysely<DB>,
  table: "events" | "transactions",
  records: readonly { projectId: number; eventId: string }[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  for (const [projectId, ids] of byProject(records)) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await trx
        .selectFrom(table)
        .select("event_id")
        .where("project_id", "=", projectId)
        .where("event_id", "in", ids.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) stored.add(eventKey(projectId, r.event_id));
    }
  }
  return stored;
}

/**
 * Which of these error events' and transactions' ids their projects already store, read in the
 * digest's transaction. On PostgreSQL, where several digesters write at once, each id is first
 * locked for the rest of the transaction (an advisory lock on its hash, taken in order so that
 * two digesters never wait on each other): a digester that meets an id another one is writing
 * waits for that commit and then sees the stored row, so a retry digested at the same moment
 * elsewhere is still stored and counted once. SQLite has one writer: the transaction alone suffices.
 */
export async function storedEventIds(
  trx: Kysely<DB>,
  dialect: Dialect,
  events: readonly EventRecord[],
  transactions: readonly TransactionRecord[],
): Promise<StoredIds> {
  if (dialect === "postgres" && events.length + transactions.length > 0) {
    // A transaction's key is marked apart: an error event and a transaction may share an id.
    const keys = [
      ...new Set([...events.map((e) => `${e.projectId}:${e.eventId}`), ...transactions.map((t) => `t${t.projectId}:${t.eventId}`)]),
    ];
    await sql`select pg_advisory_xact_lock(${EVENT_ID_LOCKS}, k) from (select distinct hashtext(x) as k from unnest(${keys}::text[]) as x order by k) as locks`.execute(
      trx,
    );
  }
  return { events: await storedIn(trx, "events", events), transactions: await storedIn(trx, "transactions", transactions) };
}
