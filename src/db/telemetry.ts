import { sql, type Insertable, type InsertQueryBuilder, type InsertResult, type Kysely } from "kysely";
import { insertRows } from "./bulk-insert";
import type { DigestRecords, EventRecord, SessionCountRecord, SessionMemberRecord } from "../core/digest/records";
import { admitMembers, mergeMembers, overflowCounts } from "../core/releases/health-members";
import { storableRow } from "../core/digest/storable";
import type { TelemetryStore } from "../core/ports/telemetry";
import type { DB } from "./schema";

/** Rows per INSERT statement: SQLite allows 32,766 bound parameters, the widest table has 13 columns. */
const INSERT_CHUNK = 500;

type EventRow = Insertable<DB["events"]>;
/** Bytes as a Buffer without copying them (a record's bytes come from another thread as a plain Uint8Array). */
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** An event's row: its indexed fields in columns, the event itself compressed (decision 0013). */
function eventRow(record: EventRecord): EventRow {
  const { facts } = record;
  return {
    project_id: record.projectId,
    issue_id: record.issueId,
    grouping_hash: record.hashes[0] ?? null,
    event_id: record.eventId,
    type: facts.type,
    timestamp: facts.timestamp,
    received_at: record.receivedAt,
    level: facts.level,
    title: record.issue.title,
    release: facts.release,
    environment: facts.environment,
    trace_id: facts.traceId,
    data: asBuffer(record.payload),
  };
}

async function insertChunks<T extends keyof DB & string>(
  trx: Kysely<DB>,
  table: T,
  rows: readonly Insertable<DB[T]>[],
  ignoreConflict?: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  const conflict = ignoreConflict && {
    name: `ignore(${ignoreConflict.join(",")})`,
    // Kysely cannot relate a generic table's columns to `columns`; they are the table's unique key.
    apply: (q: InsertQueryBuilder<DB, T, InsertResult>) => q.onConflict((oc) => oc.columns(ignoreConflict as never).doNothing()),
  };
  await insertRows(trx, table, rows.map(storableRow), conflict);
}

/** Adds session counts, summing those with the same key first (PostgreSQL refuses duplicates in one upsert). */
async function addSessions(trx: Kysely<DB>, records: readonly SessionCountRecord[]): Promise<void> {
  const merged = new Map<string, Insertable<DB["session_counts"]>>();
  for (const r of records) {
    const row = storableRow({
      project_id: r.projectId,
      hour: r.hour,
      release: r.release,
      environment: r.environment,
      status: r.status,
      quantity: r.quantity,
    });
    const key = `${row.project_id}\u0000${row.hour}\u0000${row.release}\u0000${row.environment}\u0000${row.status}`;
    const prev = merged.get(key);
    if (prev) prev.quantity += row.quantity;
    else merged.set(key, row);
  }
  const all = [...merged.values()];
  for (let i = 0; i < all.length; i += INSERT_CHUNK) {
    await trx
      .insertInto("session_counts")
      .values(all.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) =>
        oc
          .columns(["project_id", "hour", "release", "environment", "status"])
          .doUpdateSet({ quantity: sql`session_counts.quantity + excluded.quantity` }),
      )
      .execute();
  }
}

/**
 * Stores release-health members (users, errored sessions) once per bucket with their worst
 * status, at most MAX_BUCKET_MEMBERS per bucket (src/core/releases/health-members.ts); what
 * overflows is returned as session counts.
 */
async function addSessionMembers(trx: Kysely<DB>, records: readonly SessionMemberRecord[]): Promise<SessionCountRecord[]> {
  const overflowing: SessionCountRecord[] = [];
  // Made storable before anything reads by them: the bucket's lookup binds its release and environment too.
  for (const members of mergeMembers(records.map(storableRow)).values()) {
    const first = members[0]!;
    const inBucket = trx
      .selectFrom("session_distinct")
      .where("project_id", "=", first.projectId)
      .where("kind", "=", first.kind)
      .where("bucket", "=", first.bucket)
      .where("release", "=", first.release)
      .where("environment", "=", first.environment);
    const stored = await inBucket.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirst();
    const known = new Set<string>();
    for (let i = 0; i < members.length; i += INSERT_CHUNK) {
      const rows = await inBucket
        .select("member")
        .where(
          "member",
          "in",
          members.slice(i, i + INSERT_CHUNK).map((m) => m.member),
        )
        .execute();
      for (const r of rows) known.add(r.member);
    }
    const { admitted, overflow } = admitMembers(members, known, Number(stored?.n ?? 0));
    overflowing.push(...overflowCounts(overflow));
    const rows = admitted.map((m) =>
      storableRow({
        project_id: m.projectId,
        kind: m.kind,
        bucket: m.bucket,
        release: m.release,
        environment: m.environment,
        member: m.member,
        worst: m.worst,
      }),
    );
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto("session_distinct")
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) =>
          oc.columns(["project_id", "kind", "bucket", "release", "environment", "member"]).doUpdateSet({
            worst: sql`case when excluded.worst > session_distinct.worst then excluded.worst else session_distinct.worst end`,
          }),
        )
        .execute();
    }
  }
  return overflowing;
}

/**
 * The TelemetryStore on the main database, in the transaction it is given, for SQLite and
 * PostgreSQL alike (the statements used mean the same on both; upserts use `excluded`).
 * Every string column goes through `storableRow` (decision 0006).
 */
export class KyselyTelemetryStore implements TelemetryStore {
  constructor(private readonly trx: Kysely<DB>) {}

  async write(batch: Omit<DigestRecords, "outcomes">): Promise<void> {
    const { trx } = this;
    const events = batch.events.map(eventRow);
    await insertChunks(trx, "events", events, ["project_id", "event_id"]);
    const transactions = batch.transactions.map((t) => ({
      project_id: t.projectId,
      event_id: t.eventId,
      trace_id: t.traceId,
      span_id: t.spanId,
      name: t.name,
      op: t.op,
      status: t.status,
      start_timestamp: t.startTimestamp,
      timestamp: t.timestamp,
      received_at: t.receivedAt,
      data: asBuffer(t.payload),
    }));
    await insertChunks(trx, "transactions", transactions, ["project_id", "event_id"]);
    const spans = batch.spans.map((s) => ({
      project_id: s.projectId,
      trace_id: s.traceId,
      span_id: s.spanId,
      parent_span_id: s.parentSpanId,
      segment_id: s.segmentId,
      name: s.name,
      op: s.op,
      status: s.status,
      start_timestamp: s.startTimestamp,
      timestamp: s.timestamp,
      data: s.data,
    }));
    await insertChunks(trx, "spans", spans);
    const logs = batch.logs.map((l) => ({
      project_id: l.projectId,
      timestamp: l.timestamp,
      level: l.level,
      body: l.body,
      trace_id: l.traceId,
      data: l.attributes,
    }));
    await insertChunks(trx, "logs", logs);
    const feedback = batch.feedback.map((f) => ({
      project_id: f.projectId,
      event_id: f.eventId,
      name: f.name,
      email: f.email,
      comments: f.comments,
      received_at: f.receivedAt,
      data: f.data,
    }));
    await insertChunks(trx, "feedback", feedback);
    const checkIns = batch.checkIns.map((c) => ({
      project_id: c.projectId,
      check_in_id: c.checkInId,
      monitor_slug: c.monitorSlug,
      status: c.status,
      duration: c.duration,
      environment: c.environment,
      received_at: c.receivedAt,
      data: c.data,
    }));
    await insertChunks(trx, "check_ins", checkIns);
    const raw = batch.rawItems.map((r) => ({
      project_id: r.projectId,
      type: r.type,
      event_id: r.eventId,
      received_at: r.receivedAt,
      payload: asBuffer(r.payload),
    }));
    await insertChunks(trx, "raw_items", raw);
    const overflow = await addSessionMembers(trx, batch.sessionMembers);
    await addSessions(trx, [...batch.sessions, ...overflow]);
  }
}
