import { describe, expect, it } from "vitest";
import { keepTimelySpans, spanTimesValid } from "./span-times";

const T = 1_795_337_617; // 2026-11-22
const segment = { start: T, end: T + 5 };

describe("span times", () => {
  it("keeps a span inside its segment, and one up to a minute outside it", () => {
    expect(spanTimesValid(T + 1, T + 2, segment)).toBe(true);
    expect(spanTimesValid(T - 60, T + 65, segment)).toBe(true);
  });

  it("rejects a span that starts or ends more than a minute outside its segment", () => {
    expect(spanTimesValid(T - 61, T + 1, segment)).toBe(false);
    expect(spanTimesValid(T + 1, T + 66, segment)).toBe(false);
    expect(spanTimesValid(T + 3600, T + 3601, segment)).toBe(false);
  });

  it("rejects a span before 2000 even without a known segment", () => {
    expect(spanTimesValid(1000, 1001)).toBe(false);
    expect(spanTimesValid(T, 946_684_799)).toBe(false);
    expect(spanTimesValid(946_684_800, T)).toBe(true);
  });

  it("rejects times that are not finite numbers", () => {
    expect(spanTimesValid(Number.NaN, T)).toBe(false);
    expect(spanTimesValid(T, Number.POSITIVE_INFINITY)).toBe(false);
  });

  it("keeps the timely spans in order and counts the others", () => {
    const spans = [
      { id: "a", start_timestamp: T + 1, timestamp: T + 2 },
      { id: "b", start_timestamp: 1000, timestamp: 1001 },
      { id: "c", start_timestamp: T + 2, timestamp: T + 3 },
    ];
    const { kept, dropped } = keepTimelySpans(spans, segment);
    expect(kept.map((s) => s.id)).toEqual(["a", "c"]);
    expect(dropped).toBe(1);
  });
});
