import type { DigestRecords, OutcomeRecord, SpanRecord, TransactionRecord } from "./records";

/** The key an event is unique by: its id within its project, as the events and transactions tables' unique keys. */
export const eventKey = (projectId: number, eventId: string): string => `${projectId}\u0000${eventId}`;

/** The ids (keys by eventKey) the batch's projects already store, per table: the two are unique apart. */
export interface StoredIds {
  events: ReadonlySet<string>;
  transactions: ReadonlySet<string>;
}

/** The records among `all` whose key is stored or came earlier in the batch, and the others. */
function split<T extends { projectId: number; eventId: string }>(all: T[], stored: ReadonlySet<string>): { kept: T[]; dropped: T[] } {
  const seen = new Set<string>();
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const r of all) {
    const key = eventKey(r.projectId, r.eventId);
    if (stored.has(key) || seen.has(key)) dropped.push(r);
    else {
      seen.add(key);
      kept.push(r);
    }
  }
  return { kept, dropped };
}

/** Counts owed per category, project and time: the `accepted` counts the dropped records had. */
class Owed {
  private readonly owed = new Map<string, number>();
  readonly moved: OutcomeRecord[] = [];
  add(category: string, projectId: number, at: number, quantity: number): void {
    if (quantity <= 0) return;
    const key = `${category}\u0000${projectId}\u0000${at}`;
    this.owed.set(key, (this.owed.get(key) ?? 0) + quantity);
    this.moved.push({ projectId, category, outcome: "invalid", reason: "duplicate", quantity, at });
  }
  /** The outcomes with the owed `accepted` counts taken off, and each dropped record counted invalid/duplicate. */
  settle(outcomes: readonly OutcomeRecord[]): OutcomeRecord[] {
    const out: OutcomeRecord[] = [];
    for (const o of outcomes) {
      const key = `${o.category}\u0000${o.projectId}\u0000${o.at}`;
      const owed = o.outcome === "accepted" ? (this.owed.get(key) ?? 0) : 0;
      const taken = Math.min(owed, o.quantity);
      if (taken > 0) this.owed.set(key, owed - taken);
      if (taken < o.quantity) out.push(taken === 0 ? o : { ...o, quantity: o.quantity - taken });
    }
    return [...out, ...this.moved];
  }
}

/**
 * The batch's records without the error events and transactions that are already stored
 * (`stored`) or that an earlier envelope of the batch already carries: an SDK that retries
 * sends the same `event_id` again, and Sentry keeps the first and counts the others `invalid`,
 * reason `duplicate` (https://docs.sentry.io/product/stats/#invalid). A dropped transaction
 * takes the spans it brought with it. Each dropped record's `accepted` count (`error`, or
 * `transaction` and `span`, as its stage counted it) becomes that outcome, so it is counted
 * once and its issue's counts and stored spans do not move. The records given are not changed:
 * a batch that is written again in halves (./write.ts) asks again.
 */
export function withoutDuplicates(records: DigestRecords, stored: StoredIds): DigestRecords {
  const events = split(records.events, stored.events);
  const transactions = split(records.transactions, stored.transactions);
  if (events.dropped.length === 0 && transactions.dropped.length === 0) return records;
  const owed = new Owed();
  // The stages counted each record accepted in its project at its arrival.
  for (const r of events.dropped) owed.add("error", r.projectId, r.receivedAt, 1);
  const droppedSpans = new Map<SpanRecord, TransactionRecord>();
  for (const t of transactions.dropped) {
    if (t.kind === "event") owed.add("transaction", t.projectId, t.receivedAt, 1);
    for (const s of t.spans) droppedSpans.set(s, t);
  }
  const spans: SpanRecord[] = [];
  const spanCounts = new Map<TransactionRecord, number>();
  for (const s of records.spans) {
    const t = droppedSpans.get(s);
    if (t) spanCounts.set(t, (spanCounts.get(t) ?? 0) + 1);
    else spans.push(s);
  }
  // Counted by the spans actually taken out of the batch, so the counts say what is stored.
  for (const [t, n] of spanCounts) owed.add("span", t.projectId, t.receivedAt, n);
  return { ...records, events: events.kept, transactions: transactions.kept, spans, outcomes: owed.settle(records.outcomes) };
}
