import { describe, expect, it } from "vitest";
import { isoOrUndefined, isoText } from "./time-text";

describe("isoText", () => {
  it("prints a time a Date holds as ISO 8601", () => {
    expect(isoText(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(isoText(253_402_300_799_000)).toBe("9999-12-31T23:59:59.000Z");
  });

  it("prints what no Date holds as the number, never throwing", () => {
    for (const ms of [8.64e15 + 1, 8.65e12 * 1000, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(isoOrUndefined(ms)).toBeUndefined();
      expect(isoText(ms)).toBe(String(ms));
    }
  });
});
