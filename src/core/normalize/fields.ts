/**
 * Normalizers for the event's smaller fields: level, platform, release, environment, tags,
 * fingerprint, contexts, modules, SDK info, measurements and debug images (docs/protocol.md#event-payload).
 */
import { BAGS, MAX_CHARS, MAX_COUNT } from "./limits";
import { Budget, trimObject } from "./databag";
import type { JsonObject, Level, Measurement, Pairs, Sdk } from "./types";
import {
  cleanString,
  forEachEntry,
  isObject,
  readHexId,
  readLenientString,
  readNumber,
  readString,
  readStringList,
  readTrimmed,
  setKey,
  type Warnings,
} from "./values";

const LEVELS: Record<string, Level> = {
  fatal: "fatal",
  critical: "fatal",
  error: "error",
  warning: "warning",
  warn: "warning",
  info: "info",
  log: "info",
  debug: "debug",
  trace: "debug",
};

/**
 * A level from a name (case-insensitive; `warn` → warning, `critical` → fatal, `log` → info)
 * or a Python logging number (50 fatal … 10 debug). Unknown values give `undefined`.
 */
export function normalizeLevel(value: unknown): Level | undefined {
  if (typeof value === "string" && value.length <= 16) return LEVELS[value.trim().toLowerCase()];
  if (typeof value === "number" && Number.isFinite(value)) {
    if (value >= 50) return "fatal";
    if (value >= 40) return "error";
    if (value >= 30) return "warning";
    if (value >= 20) return "info";
    return "debug";
  }
  return undefined;
}

/** Relay's list of valid platforms; anything else becomes "other". */
const PLATFORMS = new Set([
  "as3",
  "c",
  "cfml",
  "cocoa",
  "csharp",
  "elixir",
  "haskell",
  "go",
  "groovy",
  "java",
  "javascript",
  "native",
  "node",
  "objc",
  "other",
  "perl",
  "php",
  "python",
  "ruby",
]);

export function normalizePlatform(value: unknown): string {
  return typeof value === "string" && PLATFORMS.has(value) ? value : "other";
}

/** Sentry rejects release names that are empty, `.`, `..`, `latest` or hold newlines, tabs or slashes. */
const BAD_RELEASE = /[\n\r\t\f/\\]/;
export function normalizeRelease(value: unknown, warnings: Warnings): string | undefined {
  const release = typeof value === "number" ? String(value) : readTrimmed(value, MAX_CHARS.release);
  if (release === undefined) return undefined;
  if (release === "." || release === ".." || release.toLowerCase() === "latest" || BAD_RELEASE.test(release)) {
    warnings.add("release: invalid name; dropped");
    return undefined;
  }
  return release;
}

/** Sentry environment names hold no newlines or slashes and are not "None". */
const BAD_ENVIRONMENT = /[\n\r\t\f/]/;
export function normalizeEnvironment(value: unknown, warnings: Warnings): string | undefined {
  const environment = readTrimmed(value, MAX_CHARS.environment);
  if (environment === undefined) return undefined;
  if (environment === "None" || BAD_ENVIRONMENT.test(environment)) {
    warnings.add("environment: invalid name; dropped");
    return undefined;
  }
  return environment;
}

/**
 * Tags from an object or a list of `[key, value]` pairs into pairs. Values may be numbers or
 * booleans (stringified); empty keys or values and non-scalar values are dropped, and a
 * repeated key keeps its first value.
 */
export function normalizeTags(raw: unknown, warnings: Warnings): Pairs | undefined {
  const out: Pairs = [];
  const seen = new Set<string>();
  let dropped = 0;
  const add = (key: unknown, value: unknown): void => {
    const k = readTrimmed(key, MAX_CHARS.tagKey);
    const v = readLenientString(typeof value === "string" ? value.trim() : value, MAX_CHARS.tagValue);
    if (k === undefined || v === undefined || seen.has(k)) {
      dropped++;
      return;
    }
    if (out.length >= MAX_COUNT.tags) {
      dropped++;
      return;
    }
    seen.add(k);
    out.push([k, v]);
  };
  if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length && i < MAX_COUNT.tags * 2; i++) {
      const pair: unknown = raw[i];
      if (Array.isArray(pair) && pair.length === 2) add(pair[0], pair[1]);
      else dropped++;
    }
    dropped += Math.max(0, raw.length - MAX_COUNT.tags * 2);
  } else if (isObject(raw)) {
    dropped += forEachEntry(raw, MAX_COUNT.tags * 2, add);
  } else {
    return undefined;
  }
  if (dropped > 0) warnings.add(`tags: ${dropped} invalid, repeated or excess tags dropped`);
  return out.length > 0 ? out : undefined;
}

/** A fingerprint: a list of strings; numbers and booleans become strings, others are dropped. */
export function normalizeFingerprint(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: string[] = [];
  for (let i = 0; i < raw.length && out.length < MAX_COUNT.fingerprint; i++) {
    const part = readLenientString(raw[i], MAX_CHARS.fingerprintEntry);
    if (part !== undefined) out.push(part);
  }
  return out.length > 0 ? out : undefined;
}

function normalizeTraceContext(context: JsonObject): void {
  const traceId = readHexId(context.trace_id, 32);
  if (traceId !== undefined) context.trace_id = traceId;
  else delete context.trace_id;
  for (const key of ["span_id", "parent_span_id"] as const) {
    const id = readHexId(context[key], 16);
    if (id !== undefined) context[key] = id;
    else delete context[key];
  }
}

/** Contexts: each an object in its own budget, all within a total; non-objects are dropped. */
export function normalizeContexts(raw: unknown, warnings: Warnings): Record<string, JsonObject> | undefined {
  if (!isObject(raw)) return undefined;
  const out: Record<string, JsonObject> = {};
  const total = new Budget(BAGS.contextsTotal.bytes);
  let count = 0;
  let trimmed = false;
  const skipped = forEachEntry(raw, MAX_COUNT.contexts, (key, value) => {
    if (total.exhausted) {
      trimmed = true;
      return;
    }
    const budget = new Budget(Math.min(BAGS.context.bytes, total.remaining));
    const context = trimObject(value, BAGS.context, budget);
    total.remaining -= Math.min(BAGS.context.bytes, total.remaining) - budget.remaining;
    if (budget.trimmed) trimmed = true;
    if (context === undefined) return;
    const name = cleanString(key, MAX_CHARS.enumLike);
    if (name === "trace") normalizeTraceContext(context);
    setKey(out, name, context);
    count++;
  });
  if (skipped > 0) warnings.add(`contexts: ${skipped} contexts dropped`);
  if (trimmed) warnings.add("contexts: trimmed to size");
  return count > 0 ? out : undefined;
}

/** Modules: name → version strings. */
export function normalizeModules(raw: unknown): Record<string, string> | undefined {
  if (!isObject(raw)) return undefined;
  const out: Record<string, string> = {};
  let count = 0;
  forEachEntry(raw, MAX_COUNT.modules, (name, version) => {
    const v = readLenientString(version, MAX_CHARS.enumLike);
    if (v === undefined || name === "") return;
    setKey(out, cleanString(name, MAX_CHARS.path), v);
    count++;
  });
  return count > 0 ? out : undefined;
}

export function normalizeSdk(raw: unknown): Sdk | undefined {
  if (!isObject(raw)) return undefined;
  const sdk: Sdk = {};
  const name = readString(raw.name, MAX_CHARS.enumLike);
  if (name !== undefined) sdk.name = name;
  const version = readLenientString(raw.version, MAX_CHARS.enumLike);
  if (version !== undefined) sdk.version = version;
  const integrations = readStringList(raw.integrations, MAX_COUNT.sdkList, MAX_CHARS.enumLike);
  if (integrations && integrations.length > 0) sdk.integrations = integrations;
  if (Array.isArray(raw.packages)) {
    const packages: Array<{ name: string; version: string }> = [];
    for (let i = 0; i < raw.packages.length && packages.length < MAX_COUNT.sdkList; i++) {
      const item: unknown = raw.packages[i];
      if (!isObject(item)) continue;
      const pkgName = readString(item.name, MAX_CHARS.enumLike);
      const pkgVersion = readLenientString(item.version, MAX_CHARS.enumLike);
      if (pkgName !== undefined && pkgVersion !== undefined) packages.push({ name: pkgName, version: pkgVersion });
    }
    if (packages.length > 0) sdk.packages = packages;
  }
  const settings = trimObject(raw.settings, BAGS.sdkSettings);
  if (settings !== undefined) sdk.settings = settings;
  return Object.keys(sdk).length > 0 ? sdk : undefined;
}

/** Measurements: `{name: {value, unit?}}`; names are lowercased, as Relay does. */
export function normalizeMeasurements(raw: unknown): Record<string, Measurement> | undefined {
  if (!isObject(raw)) return undefined;
  const out: Record<string, Measurement> = {};
  let count = 0;
  forEachEntry(raw, MAX_COUNT.measurements, (name, item) => {
    if (!isObject(item)) return;
    const value = readNumber(item.value);
    if (value === undefined || name === "") return;
    const measurement: Measurement = { value };
    if (typeof item.unit === "string") measurement.unit = cleanString(item.unit, MAX_CHARS.enumLike);
    setKey(out, cleanString(name.toLowerCase(), MAX_CHARS.enumLike), measurement);
    count++;
  });
  return count > 0 ? out : undefined;
}

/** `debug_meta.images` (source map debug ids, native images), each a small databag. */
export function normalizeDebugMeta(raw: unknown): { images: JsonObject[] } | undefined {
  if (!isObject(raw) || !Array.isArray(raw.images)) return undefined;
  const images: JsonObject[] = [];
  for (let i = 0; i < raw.images.length && images.length < MAX_COUNT.debugImages; i++) {
    const image = trimObject(raw.images[i], BAGS.debugImage);
    if (image !== undefined) images.push(image);
  }
  return images.length > 0 ? { images } : undefined;
}
