import { describe, expect, it } from "vitest";
import { browserEvent, RECEIVED_SECONDS, transactionEvent } from "../../../test/support/sdk-events";
import { eventKey, withoutDuplicates } from "./duplicates";
import { mergeRecords } from "./records";
import { digest, envelope, tally } from "../../../test/support/digest-stages";

const ID = "0123456789abcdef0123456789abcdef";
const NONE = { events: new Set<string>(), transactions: new Set<string>() };
const send = (id: string) => envelope([{ type: "event", payload: { ...browserEvent(), event_id: id } }], { event_id: id });

describe("withoutDuplicates", () => {
  it("keeps the first of an id's sends in a batch and counts the others invalid, reason duplicate", async () => {
    const other = "fedcba9876543210fedcba9876543210";
    const { settled } = await digest([send(ID), send(ID), send(other), send(ID)]);
    const batch = mergeRecords(settled.map((s) => s.records));
    const kept = withoutDuplicates(batch, NONE);
    expect(kept.events.map((e) => e.eventId)).toEqual([ID, other]);
    expect(tally(kept.outcomes)).toEqual({ "error/accepted/": 2, "error/invalid/duplicate": 2 });
    // The batch's own records are as they were: a batch written again in halves asks again.
    expect(batch.events).toHaveLength(4);
    expect(tally(batch.outcomes)).toEqual({ "error/accepted/": 4 });
  });

  it("drops an id its project already stores, and only in that project", async () => {
    const { settled } = await digest([send(ID), send(ID)], {}, [1, 2]);
    const kept = withoutDuplicates(mergeRecords(settled.map((s) => s.records)), { ...NONE, events: new Set([eventKey(1, ID)]) });
    expect(kept.events.map((e) => e.projectId)).toEqual([2]);
    expect(kept.outcomes.map((o) => [o.projectId, o.outcome, o.reason, o.quantity])).toEqual([
      [2, "accepted", "", 1],
      [1, "invalid", "duplicate", 1],
    ]);
  });

  it("returns a batch without duplicates as it is", async () => {
    const { settled } = await digest([send(ID)]);
    const batch = mergeRecords(settled.map((s) => s.records));
    expect(withoutDuplicates(batch, NONE)).toBe(batch);
  });

  it("drops a resent transaction with its spans, and counts both invalid, reason duplicate", async () => {
    const tx = (id: string) => envelope([{ type: "transaction", payload: { ...transactionEvent(2), event_id: id } }], { event_id: id });
    const other = "fedcba9876543210fedcba9876543210";
    const { settled } = await digest([tx(ID), tx(other), tx(ID), send(ID)]);
    // As a settle thread answers them: a structured clone keeps a transaction's spans the batch's own.
    const batch = mergeRecords(structuredClone(settled).map((s) => s.records));
    const kept = withoutDuplicates(batch, NONE);
    expect(kept.transactions.map((t) => t.eventId)).toEqual([ID, other]);
    // The first send's three spans and the other transaction's, the very records they brought.
    expect(kept.spans).toEqual([...kept.transactions[0]!.spans, ...kept.transactions[1]!.spans]);
    expect(kept.spans).toHaveLength(6);
    expect(kept.events).toHaveLength(1);
    expect(tally(kept.outcomes)).toEqual({
      "error/accepted/": 1,
      "transaction/accepted/": 2,
      "span/accepted/": 6,
      "transaction/invalid/duplicate": 1,
      "span/invalid/duplicate": 3,
    });
    // Stored already: every send of it goes, in its project only; an error event of that id stays.
    const again = withoutDuplicates(batch, { ...NONE, transactions: new Set([eventKey(1, ID)]) });
    expect(again.transactions.map((t) => t.eventId)).toEqual([other]);
    expect(again.spans).toHaveLength(3);
    expect(again.events).toHaveLength(1);
    expect(tally(again.outcomes)).toMatchObject({ "transaction/invalid/duplicate": 2, "span/invalid/duplicate": 6 });
  });

  it("drops a resent span v2 segment with the spans of its container, counted as spans only", async () => {
    const trace = "0af7651916cd43dd8448eb211c80319c";
    const at = { start_timestamp: RECEIVED_SECONDS - 2, end_timestamp: RECEIVED_SECONDS - 1 };
    const segment = { trace_id: trace, span_id: "a1b2c3d4e5f60718", name: "GET /", is_segment: true, ...at };
    const of = (id: string) => ({ "sentry.segment.id": { type: "string", value: id } });
    const child = {
      trace_id: trace,
      span_id: "1000000000000001",
      parent_span_id: segment.span_id,
      name: "db",
      attributes: of(segment.span_id),
      ...at,
    };
    const loose = { ...child, span_id: "2000000000000002", attributes: of("b1b2c3d4e5f60718") };
    const container = (items: unknown[]) => envelope([{ type: "span", payload: { items }, headers: { item_count: items.length } }]);
    const { settled } = await digest([container([child, segment]), container([segment, child, loose])]);
    const kept = withoutDuplicates(mergeRecords(settled.map((s) => s.records)), NONE);
    expect(kept.transactions).toHaveLength(1);
    // The resent container's span of another segment is not a duplicate: it stays.
    expect(kept.spans.map((s) => s.spanId)).toEqual([child.span_id, segment.span_id, loose.span_id]);
    expect(tally(kept.outcomes)).toEqual({ "span/accepted/": 3, "span/invalid/duplicate": 2 });
  });
});
