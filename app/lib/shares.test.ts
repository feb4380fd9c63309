import { describe, expect, it } from "vitest";
import { percentShares } from "./shares";

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

describe("percentShares", () => {
  it("adds up to 100 where rounding each share would give 101", () => {
    // 2/3 = 66.7 and 1/6 = 16.7 twice: rounded one by one, 67 + 17 + 17 = 101.
    const shares = percentShares([4, 1, 1], 6);
    expect(shares).toEqual([66, 17, 17]);
    expect(sum(shares)).toBe(100);
  });

  it("adds up to 100 where rounding each share would give 99", () => {
    expect(percentShares([1, 1, 1], 3)).toEqual([34, 33, 33]);
  });

  it("keeps the values not listed as their own share", () => {
    // Listed 1/3 and 1/3; the unlisted third keeps its point, so the listed shares add up to 66 or 67, not 100.
    const shares = percentShares([1, 1], 3);
    expect(sum(shares)).toBeLessThanOrEqual(67);
    expect(shares).toEqual([34, 33]);
  });

  it("is exact where the counts divide evenly, and zero for nothing", () => {
    expect(percentShares([1, 1, 2], 4)).toEqual([25, 25, 50]);
    expect(percentShares([0, 0], 0)).toEqual([0, 0]);
    expect(percentShares([], 5)).toEqual([]);
  });

  it("always adds up to 100 when every value is listed", () => {
    for (let n = 1; n < 40; n++) {
      const counts = Array.from({ length: (n % 7) + 1 }, (_, i) => ((i * 7919 + n) % 13) + 1);
      expect(sum(percentShares(counts, sum(counts)))).toBe(100);
    }
  });
});
