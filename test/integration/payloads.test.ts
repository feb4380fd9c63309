import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventInProject } from "../../src/core/issues/queries";
import { decodePayload, encodePayload } from "../../src/core/storage/payload";
import { m0015 } from "../../src/db/migrations/0015_compressed_payloads";
import { buildEnvelope, eventItem, newEventId, transactionEnvelope } from "../support/envelopes";
import { openDigestBench, type DigestBench } from "../support/digest";
import { DIALECTS } from "../support/stores";

/**
 * Issue 11, cost: event and transaction payloads are stored compressed, and a transaction's
 * spans once (as spans), on both databases; rows stored before the change stay readable.
 */
describe.each(DIALECTS)("compressed payloads on %s", (dialect) => {
  let bench: DigestBench;
  beforeAll(async () => void (bench = await openDigestBench(dialect)));
  afterAll(() => bench.store.cleanup());

  it("stores an error event compressed, in under a third of its JSON, and reads it back whole", async () => {
    const id = newEventId();
    const blob = "order line ".repeat(300);
    await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, "Compressed checkout failure", { extra: { blob } })]));
    await bench.drain();
    const row = await bench.store.db.selectFrom("events").select(["data"]).where("event_id", "=", id).executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(row.data)).toBe(true);
    const json = decodePayload(row.data);
    expect(row.data.length).toBeLessThan(Buffer.byteLength(json) / 3);
    const event = JSON.parse(json) as { event_id: string; extra: { blob: string } };
    expect(event.event_id).toBe(id);
    expect(event.extra.blob).toBe(blob);
    // The event list reads it as every page does.
    const read = await eventInProject(bench.ctx, bench.projectId, id);
    expect(JSON.parse(decodePayload(read.data))).toEqual(event);
  });

  it("stores a transaction without its spans, which are stored once, as spans", async () => {
    const id = newEventId();
    await bench.enqueue(transactionEnvelope(id, "GET /compressed"));
    await bench.drain();
    const tx = await bench.store.db
      .selectFrom("transactions")
      .select(["data", "trace_id"])
      .where("event_id", "=", id)
      .executeTakeFirstOrThrow();
    const stored = JSON.parse(decodePayload(tx.data)) as { transaction: string; spans?: unknown };
    expect(stored.transaction).toBe("GET /compressed");
    expect(stored.spans).toBeUndefined();
    const spans = await bench.store.db.selectFrom("spans").select(["name", "op"]).where("trace_id", "=", tx.trace_id).execute();
    expect(spans).toContainEqual({ name: "select 1", op: "db" });
  });

  it("keeps rows stored before compression readable, through migration 0015", async () => {
    const id = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: id }, [eventItem(id, "Stored before compression")]));
    await bench.drain();
    const json = decodePayload(
      (await bench.store.db.selectFrom("events").select("data").where("event_id", "=", id).executeTakeFirstOrThrow()).data,
    );
    const db = bench.store.db;
    if (dialect === "postgres") {
      // As before the migration: a text column holding the JSON.
      await sql`UPDATE events SET data = convert_to('{}', 'UTF8')`.execute(db);
      await sql`ALTER TABLE events ALTER COLUMN data TYPE text USING convert_from(data, 'UTF8')`.execute(db);
      await sql`ALTER TABLE transactions ALTER COLUMN data TYPE text USING ''`.execute(db);
      await sql`UPDATE events SET data = ${json} WHERE event_id = ${id}`.execute(db);
      await m0015.up(db, dialect);
    } else {
      await sql`UPDATE events SET data = ${json} WHERE event_id = ${id}`.execute(db);
      await m0015.up(db, dialect);
    }
    const row = await db.selectFrom("events").select("data").where("event_id", "=", id).executeTakeFirstOrThrow();
    expect(decodePayload(row.data)).toBe(json);
    // New rows after it are compressed as usual.
    const next = newEventId();
    await bench.enqueue(buildEnvelope({ event_id: next }, [eventItem(next, "Stored after the migration")]));
    await bench.drain();
    const after = await db.selectFrom("events").select("data").where("event_id", "=", next).executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(after.data) && after.data[0]).toBe(encodePayload("{}")[0]);
  });
});
