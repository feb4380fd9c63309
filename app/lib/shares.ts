/**
 * Whole-number percentages of `counts` out of `total` that add up to 100 (largest-remainder
 * rounding): each share is rounded down, and the points left over go to the shares that lost
 * the most. Rounding each share on its own can show 33 % + 33 % + 33 % or 34 % + 34 % + 33 %.
 * `total` may exceed the sum of `counts` (values not listed): that rest takes part in the
 * rounding as one more share, which is not returned, so the listed shares never overstate it.
 */
export function percentShares(counts: readonly number[], total: number): number[] {
  const listed = counts.reduce((s, c) => s + c, 0);
  const whole = Math.max(total, listed);
  if (whole <= 0) return counts.map(() => 0);
  const parts = [...counts, whole - listed].map((c) => (c / whole) * 100);
  const floors = parts.map(Math.floor);
  let left = 100 - floors.reduce((s, f) => s + f, 0);
  // Ties go to the earlier share, which the caller lists first (the larger count).
  const order = parts.map((p, i) => ({ i, rest: p - Math.floor(p) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left--;
  }
  return floors.slice(0, counts.length);
}
