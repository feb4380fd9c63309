import { storableText } from "../normalize/values";

/**
 * A row with every string column made storable on both databases: PostgreSQL refuses NUL in
 * `text` ("invalid byte sequence") and a lone surrogate has no UTF-8 form. JSON columns need
 * no more than this: JSON.stringify already writes both as `\u` escapes. Applied where the
 * digest writes (src/db/telemetry.ts), so no item type, present or future, can miss it.
 */
export function storableRow<T extends object>(row: T): T {
  let copy: T | undefined;
  for (const [key, value] of Object.entries(row)) {
    if (typeof value !== "string") continue;
    const clean = storableText(value);
    if (clean === value) continue;
    copy ??= { ...row };
    Object.defineProperty(copy, key, { value: clean, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? row;
}
