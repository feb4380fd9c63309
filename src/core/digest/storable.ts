import { storableText } from "../normalize/values";

/**
 * A number every numeric column holds on both databases: `bigint` ends at 2^63 - 1, and
 * SQLite stores NaN as NULL (refused by NOT NULL). The stages bound what they read (times
 * through `parseTimestamp`, counts by their own caps); this is the edge that catches the rest.
 */
export function storableNumber(n: number): number {
  if (Number.isNaN(n)) return 0;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(-Number.MAX_SAFE_INTEGER, n));
}

/**
 * A row with every string column made storable on both databases: PostgreSQL refuses NUL in
 * `text` ("invalid byte sequence") and a lone surrogate has no UTF-8 form. JSON columns need
 * no more than this: JSON.stringify already writes both as `\u` escapes. Numbers are kept
 * within ±2^53 (`storableNumber`), which a `bigint` and a double both hold exactly. Applied
 * where the digest writes (src/db/telemetry.ts), so no item type, present or future, can miss it.
 */
export function storableRow<T extends object>(row: T): T {
  let copy: T | undefined;
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    const clean = typeof value === "string" ? storableText(value) : storableNumber(value);
    if (clean === value) continue;
    copy ??= { ...row };
    Object.defineProperty(copy, key, { value: clean, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? row;
}
