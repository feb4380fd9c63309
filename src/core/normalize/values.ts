/**
 * Small readers that turn attacker-controlled `unknown` values into bounded, typed ones. None
 * of them throws; each returns `undefined` when the value has the wrong shape.
 */
import { ELLIPSIS, MAX_COUNT } from "./limits";

export type RawObject = Record<string, unknown>;

export function isObject(value: unknown): value is RawObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets a key on an object without ever touching its prototype: JSON may carry a key named
 * `__proto__`, which plain assignment would turn into a prototype change.
 */
export function setKey<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Calls `fn` for each own key of `obj`, at most `max` times, and returns how many keys were
 * left over. Uses `for…in` so a huge object is not copied into a key array first.
 */
export function forEachEntry(obj: RawObject, max: number, fn: (key: string, value: unknown) => void): number {
  let seen = 0;
  let skipped = 0;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    if (seen >= max) {
      skipped++;
      continue;
    }
    seen++;
    fn(key, obj[key]);
  }
  return skipped;
}

// NUL breaks PostgreSQL text and jsonb; lone surrogates break jsonb's \u escapes. One cheap
// test finds strings that may hold either; only those are rewritten.
const SUSPECT = /[\0\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` without NUL and with lone surrogates replaced by U+FFFD: storable on both databases. */
export function storableText(text: string): string {
  if (!SUSPECT.test(text)) return text;
  return text.replaceAll("\0", "").replace(LONE_SURROGATE, "\ufffd");
}

/** Cuts `text` to at most `max` code units, ending in "…" when cut, never inside a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? ELLIPSIS : "";
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return text.slice(0, cut) + ELLIPSIS;
}

/** A string, storable and cut to `max`. */
export function cleanString(text: string, max: number): string {
  // Cut first so repairing never scans more than the kept part.
  return storableText(truncate(text, max));
}

/** A string value, cut to `max`; empty strings count as absent. */
export function readString(value: unknown, max: number): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  return cleanString(value, max);
}

/** Like `readString`, but also accepts numbers and booleans (Relay's "lenient string"). */
export function readLenientString(value: unknown, max: number): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : cleanString(value, max);
  if (typeof value === "number") return Number.isFinite(value) ? cleanString(String(value), max) : undefined;
  if (typeof value === "boolean") return String(value);
  return undefined;
}

/** A trimmed string; empty after trimming counts as absent. */
export function readTrimmed(value: unknown, max: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : cleanString(trimmed, max);
}

/** A non-negative integer (line numbers, ids); floats are truncated, strings of digits accepted. */
export function readUint(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return undefined;
  return Math.min(Math.trunc(n), Number.MAX_SAFE_INTEGER);
}

export function readNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function readBool(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

/** A hex id of exactly `length` digits (dashes of a UUID allowed), lowercased. */
export function readHexId(value: unknown, length: number): string | undefined {
  if (typeof value !== "string" || value.length > length + 4) return undefined;
  const hex = value.length === length ? value : value.replaceAll("-", "");
  if (hex.length !== length) return undefined;
  for (let i = 0; i < hex.length; i++) {
    const c = hex.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) return undefined;
  }
  return hex.toLowerCase();
}

/** A list of strings (non-strings skipped), each cut to `maxChars`, at most `maxItems`. */
export function readStringList(value: unknown, maxItems: number, maxChars: number): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (let i = 0; i < value.length && out.length < maxItems; i++) {
    const item: unknown = value[i];
    if (typeof item === "string") out.push(cleanString(item, maxChars));
  }
  return out;
}

/** The `values` list of a Sentry "values" interface: `{values: [...]}` or a bare list. */
export function readValues(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isObject(value) && Array.isArray(value.values)) return value.values;
  return undefined;
}

/** Collects warnings up to a cap, so a hostile event cannot make the warning list huge. */
export class Warnings {
  readonly list: string[] = [];
  private extra = 0;

  add(message: string): void {
    if (this.list.length < MAX_COUNT.warnings - 1) this.list.push(message);
    else this.extra++;
  }

  done(): string[] {
    if (this.extra > 0) this.list.push(`${this.extra} more warnings not shown`);
    return this.list;
  }
}
