import type { DigestRecords, EventRecord, OutcomeRecord } from "./records";

/** The key an event is unique by: its id within its project, as the events table's unique key. */
export const eventKey = (projectId: number, eventId: string): string => `${projectId}\u0000${eventId}`;

/**
 * The batch's records without the error events that are already stored (`stored`, keys by
 * eventKey) or that an earlier envelope of the batch already carries: an SDK that retries
 * sends the same `event_id` again, and Sentry keeps the first and counts the others `invalid`,
 * reason `duplicate` (https://docs.sentry.io/product/stats/#invalid). Each dropped event's
 * `accepted` count becomes that outcome, so it is counted once and its issue's counts do not
 * move. The records given are not changed: a batch that is written again in halves
 * (src/db/digest-write.ts) asks again.
 */
export function withoutDuplicates(records: DigestRecords, stored: ReadonlySet<string>): DigestRecords {
  const seen = new Set<string>();
  const kept: EventRecord[] = [];
  const dropped: EventRecord[] = [];
  for (const r of records.events) {
    const key = eventKey(r.projectId, r.eventId);
    if (stored.has(key) || seen.has(key)) dropped.push(r);
    else {
      seen.add(key);
      kept.push(r);
    }
  }
  if (dropped.length === 0) return records;
  // The error stage counted each event accepted as it grouped it, in its project at its arrival.
  const uncount = new Map<string, number>();
  for (const r of dropped)
    uncount.set(`${r.projectId}\u0000${r.receivedAt}`, (uncount.get(`${r.projectId}\u0000${r.receivedAt}`) ?? 0) + 1);
  const outcomes: OutcomeRecord[] = [];
  for (const o of records.outcomes) {
    const key = `${o.projectId}\u0000${o.at}`;
    const owed = o.category === "error" && o.outcome === "accepted" ? (uncount.get(key) ?? 0) : 0;
    if (owed === 0) {
      outcomes.push(o);
      continue;
    }
    const taken = Math.min(owed, o.quantity);
    uncount.set(key, owed - taken);
    if (taken < o.quantity) outcomes.push({ ...o, quantity: o.quantity - taken });
  }
  for (const r of dropped) {
    outcomes.push({ projectId: r.projectId, category: "error", outcome: "invalid", reason: "duplicate", quantity: 1, at: r.receivedAt });
  }
  return { ...records, events: kept, outcomes };
}
