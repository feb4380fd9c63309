import { sql, type Kysely } from "kysely";
import { eventKey } from "../core/digest/duplicates";
import type { EventRecord } from "../core/digest/records";
import type { Dialect } from "./connect";
import type { DB } from "./schema";

/** Ids asked per statement: well under SQLite's bound-parameter limit. */
const CHUNK = 500;

/** Namespaces the digest's advisory locks (the first key of PostgreSQL's two-key form): "dupe". */
const EVENT_ID_LOCKS = 0x64757065;

/**
 * Which of these events' ids their projects already store (keys by eventKey), read in the
 * digest's transaction. On PostgreSQL, where several digesters write at once, each id is first
 * locked for the rest of the transaction (an advisory lock on its hash, taken in order so that
 * two digesters never wait on each other): a digester that meets an id another one is writing
 * waits for that commit and then sees the stored event, so a retry digested at the same moment
 * elsewhere is still one event. SQLite has one writer: the transaction alone suffices.
 */
export async function storedEventIds(trx: Kysely<DB>, dialect: Dialect, events: readonly EventRecord[]): Promise<Set<string>> {
  const stored = new Set<string>();
  if (events.length === 0) return stored;
  const byProject = new Map<number, Set<string>>();
  for (const e of events) {
    let ids = byProject.get(e.projectId);
    if (!ids) byProject.set(e.projectId, (ids = new Set()));
    ids.add(e.eventId);
  }
  if (dialect === "postgres") {
    const keys = [...new Set(events.map((e) => `${e.projectId}:${e.eventId}`))];
    await sql`select pg_advisory_xact_lock(${EVENT_ID_LOCKS}, k) from (select distinct hashtext(x) as k from unnest(${keys}::text[]) as x order by k) as locks`.execute(
      trx,
    );
  }
  for (const [projectId, set] of byProject) {
    const ids = [...set];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await trx
        .selectFrom("events")
        .select("event_id")
        .where("project_id", "=", projectId)
        .where("event_id", "in", ids.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) stored.add(eventKey(projectId, r.event_id));
    }
  }
  return stored;
}
