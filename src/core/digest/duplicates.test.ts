import { describe, expect, it } from "vitest";
import { browserEvent } from "../normalize/sdk-events.fixture";
import { eventKey, withoutDuplicates } from "./duplicates";
import { mergeRecords } from "./records";
import { digest, envelope, tally } from "./stages/test-support";

const ID = "0123456789abcdef0123456789abcdef";
const send = (id: string) => envelope([{ type: "event", payload: { ...browserEvent(), event_id: id } }], { event_id: id });

describe("withoutDuplicates", () => {
  it("keeps the first of an id's sends in a batch and counts the others invalid, reason duplicate", async () => {
    const other = "fedcba9876543210fedcba9876543210";
    const { settled } = await digest([send(ID), send(ID), send(other), send(ID)]);
    const batch = mergeRecords(settled.map((s) => s.records));
    const kept = withoutDuplicates(batch, new Set());
    expect(kept.events.map((e) => e.eventId)).toEqual([ID, other]);
    expect(tally(kept.outcomes)).toEqual({ "error/accepted/": 2, "error/invalid/duplicate": 2 });
    // The batch's own records are as they were: a batch written again in halves asks again.
    expect(batch.events).toHaveLength(4);
    expect(tally(batch.outcomes)).toEqual({ "error/accepted/": 4 });
  });

  it("drops an id its project already stores, and only in that project", async () => {
    const { settled } = await digest([send(ID), send(ID)], {}, [1, 2]);
    const kept = withoutDuplicates(mergeRecords(settled.map((s) => s.records)), new Set([eventKey(1, ID)]));
    expect(kept.events.map((e) => e.projectId)).toEqual([2]);
    expect(kept.outcomes.map((o) => [o.projectId, o.outcome, o.reason, o.quantity])).toEqual([
      [2, "accepted", "", 1],
      [1, "invalid", "duplicate", 1],
    ]);
  });

  it("returns a batch without duplicates as it is", async () => {
    const { settled } = await digest([send(ID)]);
    const batch = mergeRecords(settled.map((s) => s.records));
    expect(withoutDuplicates(batch, new Set())).toBe(batch);
  });
});
