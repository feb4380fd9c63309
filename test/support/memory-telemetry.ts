import { storableRow } from "../../src/core/digest/storable";
import { MAX_BUCKET_MEMBERS, type DigestRecords, type SessionCountRecord } from "../../src/core/digest/records";
import { admitMembers, bucketKey, mergeMembers, overflowCounts } from "../../src/core/releases/health-members";
import type { TelemetryStore } from "../../src/core/ports/telemetry";

/**
 * A TelemetryStore in memory, for core's own tests: the same rules as the database's (an
 * event or transaction id stored once per project, session counts added, session members kept
 * once per bucket with their worst status and at most `memberCap` per bucket, text made
 * storable by `storableRow`), nothing else.
 */
export class MemoryTelemetryStore implements TelemetryStore {
  constructor(private readonly memberCap = MAX_BUCKET_MEMBERS) {}

  readonly stored: Omit<DigestRecords, "outcomes"> = {
    events: [],
    transactions: [],
    spans: [],
    logs: [],
    sessions: [],
    sessionMembers: [],
    feedback: [],
    checkIns: [],
    rawItems: [],
  };

  async write(batch: Omit<DigestRecords, "outcomes">): Promise<void> {
    const s = this.stored;
    const eventIds = new Set(s.events.map((e) => `${e.projectId}:${e.eventId}`));
    for (const e of batch.events) {
      const key = `${e.projectId}:${e.eventId}`;
      if (eventIds.has(key)) continue;
      eventIds.add(key);
      s.events.push(e);
    }
    const transactionIds = new Set(s.transactions.map((t) => `${t.projectId}:${t.eventId}`));
    for (const t of batch.transactions) {
      const key = `${t.projectId}:${t.eventId}`;
      if (transactionIds.has(key)) continue;
      transactionIds.add(key);
      s.transactions.push(t);
    }
    s.spans.push(...batch.spans.map(storableRow));
    s.logs.push(...batch.logs.map(storableRow));
    s.feedback.push(...batch.feedback.map(storableRow));
    s.checkIns.push(...batch.checkIns.map(storableRow));
    s.rawItems.push(...batch.rawItems.map(storableRow));
    for (const count of batch.sessions) addSession(s.sessions, count);
    for (const [key, members] of mergeMembers(batch.sessionMembers)) {
      const stored = s.sessionMembers.filter((m) => bucketKey(m) === key);
      const byMember = new Map(stored.map((m) => [m.member, m]));
      const { admitted, overflow } = admitMembers(members, new Set(byMember.keys()), stored.length, this.memberCap);
      for (const m of admitted) {
        const prev = byMember.get(m.member);
        if (!prev) s.sessionMembers.push({ ...m });
        else prev.worst = Math.max(prev.worst, m.worst);
      }
      for (const count of overflowCounts(overflow)) addSession(s.sessions, count);
    }
  }
}

function addSession(into: SessionCountRecord[], count: SessionCountRecord): void {
  const same = into.find(
    (r) =>
      r.projectId === count.projectId &&
      r.hour === count.hour &&
      r.release === count.release &&
      r.environment === count.environment &&
      r.status === count.status,
  );
  if (same) same.quantity += count.quantity;
  else into.push({ ...count });
}
