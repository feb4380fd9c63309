import { describe, expect, it } from "vitest";
import { ago, exactUtc } from "./dates";

describe("ago", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);
  it.each([
    [16_000, "16s ago"],
    [10 * 60_000, "10min ago"],
    [5 * 3_600_000, "5h ago"],
    [3 * 86_400_000, "3d ago"],
  ])("says how long ago, %i ms back, as %s", (back, text) => {
    expect(ago(now - back, now)).toBe(text);
  });

  it("reads a time slightly in the future (clock skew) as 0s ago", () => {
    expect(ago(now + 5000, now)).toBe("0s ago");
  });
});

describe("exactUtc", () => {
  it("gives the minute in UTC with the zone named", () => {
    expect(exactUtc(Date.UTC(2026, 10, 23, 20, 58, 31))).toBe("2026-11-23 20:58 UTC");
  });
});
