/**
 * The fields of an event's contexts as a person reads them. The develop docs' Contexts interface
 * (https://develop.sentry.dev/sdk/data-model/event-payloads/contexts/) gives some fields a unit:
 * device and app memory and storage in bytes, boot and start times as UTC timestamps. SDKs send
 * them raw ("25276502016", "2026-11-28T15:27:02.035Z"); the issue page shows "23.5 GiB" and
 * "2026-11-28 15:27 UTC", with what was sent kept for the tooltip. Every other field passes as
 * it came. Everything stays text: the page renders no event data as markup.
 */
import { formatBytes } from "./bytes";
import { exactUtc } from "./dates";

/** A context field ready for the key/value table: the shown text and, when it differs, what was sent. */
export interface ContextValue {
  text: string;
  sent: string;
}

const BYTE_FIELDS: Record<string, ReadonlySet<string>> = {
  device: new Set([
    "memory_size",
    "free_memory",
    "usable_memory",
    "storage_size",
    "free_storage",
    "external_storage_size",
    "external_free_storage",
  ]),
  // `free_memory`: not in the docs' app context, but @sentry/node sends it there, in bytes.
  app: new Set(["app_memory", "free_memory"]),
};

const TIME_FIELDS: Record<string, ReadonlySet<string>> = {
  device: new Set(["boot_time"]),
  app: new Set(["app_start_time"]),
};

/** A byte count as SDKs send it: a non-negative integer, or its decimal text. */
function byteCount(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,20}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A UTC timestamp as SDKs send it: RFC 3339 text, or seconds since the epoch. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 && value < 1e11 ? value * 1000 : undefined;
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The field `key` of the context named `name`, formatted when the docs give it a unit. The
 * context's `type` decides its kind (a context may be stored under another name), else its name.
 */
export function contextValue(name: string, type: unknown, key: string, value: unknown): ContextValue | undefined {
  const kind = typeof type === "string" ? type : name;
  if (BYTE_FIELDS[kind]?.has(key)) {
    const n = byteCount(value);
    if (n !== undefined) return { text: formatBytes(n), sent: String(value) };
  }
  if (TIME_FIELDS[kind]?.has(key)) {
    const ms = timeOf(value);
    if (ms !== undefined) return { text: exactUtc(ms), sent: String(value) };
  }
  return undefined;
}
