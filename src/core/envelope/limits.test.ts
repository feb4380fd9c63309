import { describe, expect, it } from "vitest";
import { readItemHeader } from "./headers";
import { ITEM_TYPES } from "./item-types";
import { DEFAULT_ENVELOPE_LIMITS, itemBudget } from "./limits";

function budgetOf(raw: Record<string, unknown>) {
  const header = readItemHeader(raw);
  if (!header.ok) throw new Error(header.problem);
  return itemBudget(header.value, DEFAULT_ENVELOPE_LIMITS);
}

describe("itemBudget", () => {
  it("gives every known item type a byte cap of its own", () => {
    for (const type of ITEM_TYPES) expect(budgetOf({ type }).maxBytes, type).toBeGreaterThan(0);
  });

  it("leaves unknown types to the envelope cap alone", () => {
    expect(budgetOf({ type: "future" })).toMatchObject({ maxBytes: null, bytesLimit: "maxEnvelopeBytes" });
  });

  it.each([
    ["event", "maxEventBytes", 1024 * 1024],
    ["transaction", "maxTransactionBytes", 1024 * 1024],
    ["feedback", "maxEventBytes", 1024 * 1024],
    ["attachment", "maxAttachmentBytes", 200 * 1024 * 1024],
    ["session", "maxSessionsBytes", 10 * 1024 * 1024],
    ["client_report", "maxClientReportBytes", 100 * 1024],
    ["check_in", "maxCheckInBytes", 100 * 1024],
    ["profile_chunk", "maxProfileBytes", 50 * 1024 * 1024],
    ["replay_recording", "maxReplayBytes", 10 * 1024 * 1024],
    ["log", "maxLogBytes", 2 * 1024 * 1024],
    ["statsd", "maxStatsdBytes", 1024 * 1024],
  ])("caps %s by %s (Relay's default %i bytes)", (type, limit, bytes) => {
    expect(budgetOf({ type })).toMatchObject({ bytesLimit: limit, maxBytes: bytes });
  });

  it("caps a container by min(item_count × per-item cap, maxContainerBytes)", () => {
    expect(budgetOf({ type: "log", item_count: 3 })).toMatchObject({ bytesLimit: "maxLogBytes", maxBytes: 6 * 1024 * 1024 });
    expect(budgetOf({ type: "log", item_count: 100 })).toMatchObject({ bytesLimit: "maxContainerBytes", maxBytes: 12 * 1024 * 1024 });
    expect(budgetOf({ type: "span", item_count: 0 })).toMatchObject({ bytesLimit: "maxSpanBytes", maxBytes: 10 * 1024 * 1024 });
  });
});
