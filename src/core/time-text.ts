/**
 * Times as text, total: `new Date(ms).toISOString()` throws a RangeError for NaN, ±Infinity and
 * anything past ±8.64e15 ms, and a page or API answer that calls it on a stored value fails for
 * as long as that value is stored. Normalization bounds every timestamp it reads
 * (src/core/normalize/timestamps.ts); these are for reading back what was stored before, or
 * anything else that slipped through: an unprintable time is shown as the number it is.
 */

/** The largest time a JavaScript `Date` holds, in milliseconds either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/** `ms` as ISO 8601, or undefined when no `Date` holds it. */
export function isoOrUndefined(ms: number): string | undefined {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : undefined;
}

/** `ms` as ISO 8601, or the number itself as text when no `Date` holds it. */
export const isoText = (ms: number): string => isoOrUndefined(ms) ?? String(ms);
