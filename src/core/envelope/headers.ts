import { isUtf8 } from "node:buffer";
import { knownItemType, type ItemType } from "./item-types";

export type JsonObject = Readonly<Record<string, unknown>>;

/** Dynamic Sampling Context, the envelope header `trace` (docs/protocol.md#envelope-headers). Values are strings on the wire. */
export interface DynamicSamplingContext {
  readonly trace_id?: string;
  readonly public_key?: string;
  readonly sample_rate?: string;
  readonly sample_rand?: string;
  readonly sampled?: string;
  readonly release?: string;
  readonly environment?: string;
  readonly transaction?: string;
  readonly org_id?: string;
  readonly replay_id?: string;
}

/** The envelope header's known fields, checked; `raw` keeps every key as sent (the spec says retain unknown ones). */
export interface EnvelopeHeader {
  /** 32 lowercase hex characters; dashed UUIDs are normalized. */
  readonly eventId: string | undefined;
  readonly dsn: string | undefined;
  /** `sent_at` when it is a parseable date; a malformed one is left in `raw` only (it only corrects clock drift). */
  readonly sentAt: Date | undefined;
  readonly sdk: { readonly name: string; readonly version: string } | undefined;
  /** Relay tolerates a malformed `trace` (ErrorBoundary); so do we: undefined unless it is an object. */
  readonly trace: DynamicSamplingContext | undefined;
  readonly raw: JsonObject;
}

export interface ItemHeader {
  /** `type` exactly as sent; unknown types are kept verbatim. */
  readonly type: string;
  /** `type` when Telltale knows it, else null (an unknown item: pass it through). */
  readonly knownType: ItemType | null;
  /** Declared payload length in bytes; undefined means the payload runs to the next `\n` or EOF. */
  readonly length: number | undefined;
  /** Number of items inside a container (span v2, log, trace_metric). */
  readonly itemCount: number | undefined;
  readonly contentType: string | undefined;
  readonly filename: string | undefined;
  readonly attachmentType: string | undefined;
  readonly raw: JsonObject;
}

/** A header line is either a JSON object or a sentence saying what is wrong with it. */
export type HeaderLine = { ok: true; value: JsonObject } | { ok: false; problem: string };

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Reads one header line (without its `\n`). The spec wants UTF-8 JSON on one line with no
 * padding, so a `\r` left over from `\r\n` is rejected here rather than silently trimmed by
 * JSON.parse (a `\r` before `\n` belongs to the line; docs/protocol.md#envelope-format).
 */
export function parseHeaderLine(line: Buffer): HeaderLine {
  if (line.length === 0) return { ok: false, problem: "is an empty line" };
  if (!isUtf8(line)) return { ok: false, problem: "is not valid UTF-8" };
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch (e) {
    return { ok: false, problem: `is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, problem: `is ${describeJson(value)}; it must be a JSON object` };
  }
  if (line[0] !== OPEN_BRACE || line[line.length - 1] !== CLOSE_BRACE) {
    return { ok: false, problem: "has whitespace around the JSON object (lines end with \\n only, not \\r\\n)" };
  }
  return { ok: true, value: value as JsonObject };
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a JSON array";
  return `a JSON ${typeof value}`;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

const HEX32 = /^[0-9a-fA-F]{32}$/;
const DASHED_UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** UUIDs come as 32 hex characters or 36 with dashes (docs/protocol.md#envelope-format); we store the first form, lowercase. */
export function normalizeEventId(value: string): string | null {
  if (HEX32.test(value)) return value.toLowerCase();
  if (DASHED_UUID.test(value)) return value.replaceAll("-", "").toLowerCase();
  return null;
}

/**
 * Like Relay, a malformed `event_id` or `dsn` rejects the envelope: the id names the stored
 * event and the DSN authenticates it, so neither may be dropped quietly.
 */
export function readEnvelopeHeader(raw: JsonObject): Checked<EnvelopeHeader> {
  let eventId: string | undefined;
  if (raw.event_id !== undefined && raw.event_id !== null) {
    const id = typeof raw.event_id === "string" ? normalizeEventId(raw.event_id) : null;
    if (id === null) return { ok: false, problem: "event_id must be a UUID: 32 hex characters, dashes optional" };
    eventId = id;
  }
  if (raw.dsn !== undefined && raw.dsn !== null && typeof raw.dsn !== "string") {
    return { ok: false, problem: "dsn must be a string" };
  }
  return {
    ok: true,
    value: {
      eventId,
      dsn: typeof raw.dsn === "string" ? raw.dsn : undefined,
      sentAt: readDate(raw.sent_at),
      sdk: readSdk(raw.sdk),
      trace: readTrace(raw.trace),
      raw,
    },
  };
}

function readDate(value: unknown): Date | undefined {
  if (typeof value !== "string") return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function readSdk(value: unknown): EnvelopeHeader["sdk"] {
  if (!isObject(value) || typeof value.name !== "string" || typeof value.version !== "string") return undefined;
  return { name: value.name, version: value.version };
}

const DSC_KEYS = [
  "trace_id",
  "public_key",
  "sample_rate",
  "sample_rand",
  "sampled",
  "release",
  "environment",
  "transaction",
  "org_id",
  "replay_id",
] as const;

function readTrace(value: unknown): DynamicSamplingContext | undefined {
  if (!isObject(value)) return undefined;
  const dsc: Record<string, string> = {};
  for (const key of DSC_KEYS) {
    const v = value[key];
    // The spec says strings; some SDKs send sample_rate or sampled as number/boolean.
    if (typeof v === "string") dsc[key] = v;
    else if (typeof v === "number" || typeof v === "boolean") dsc[key] = String(v);
  }
  return dsc;
}

function optionalCount(raw: JsonObject, key: string): Checked<number | undefined> {
  const v = raw[key];
  // `null` reads as absent, as serde does for Relay's `Option<u32>`.
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    return { ok: false, problem: `${key} must be a non-negative integer, got ${JSON.stringify(v)}` };
  }
  return { ok: true, value: v };
}

function optionalString(raw: JsonObject, key: string): string | undefined {
  const v = raw[key];
  return typeof v === "string" ? v : undefined;
}

export function readItemHeader(raw: JsonObject): Checked<ItemHeader> {
  const type = raw.type;
  if (typeof type !== "string" || type === "") {
    return { ok: false, problem: "type is required and must be a non-empty string" };
  }
  const length = optionalCount(raw, "length");
  if (!length.ok) return length;
  const itemCount = optionalCount(raw, "item_count");
  if (!itemCount.ok) return itemCount;
  return {
    ok: true,
    value: {
      type,
      knownType: knownItemType(type),
      length: length.value,
      itemCount: itemCount.value,
      contentType: optionalString(raw, "content_type"),
      filename: optionalString(raw, "filename"),
      attachmentType: optionalString(raw, "attachment_type"),
      raw,
    },
  };
}
