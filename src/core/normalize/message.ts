/**
 * Message normalization. SDKs send a plain top-level `message` string (JS `captureMessage`), a
 * legacy `message` object, or `logentry: {message, params, formatted}` (Python logging, JS
 * `parameterize`). All become one `logentry`; `formatted` is computed from `%s`-style
 * placeholders when the SDK did not send it (develop docs: message.mdx; Relay 8192-char limit).
 */
import { BAGS, MAX_CHARS } from "./limits";
import { compactJson, trimValue } from "./databag";
import type { JsonObject, JsonValue, LogEntry } from "./types";
import { cleanString, isObject } from "./values";

// Python-style conversion: %[(name)][flags][width][.precision]type. A hand-written scanner
// keeps this linear on any input.
const CONVERSIONS = new Set(["s", "d", "i", "u", "f", "F", "r", "a", "x", "X", "o", "e", "E", "g", "G", "c"]);
// The space flag is left out: "50% done" is prose far more often than a "% d" conversion.
const FLAGS = new Set(["-", "+", "#", "0"]);
const MAX_NAME = 64;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function render(param: JsonValue | undefined, conversion: string): string {
  if (param === undefined) return "";
  if (typeof param === "string") return param;
  if (typeof param === "number" && (conversion === "d" || conversion === "i" || conversion === "u")) return String(Math.trunc(param));
  if (param === null || typeof param !== "object") return String(param);
  return compactJson(param, 256);
}

/**
 * Substitutes `params` into `template`: a list fills `%s`, `%d`, … in order; an object fills
 * `%(name)s`. `%%` is a literal percent sign. Placeholders without a parameter stay as written.
 */
export function formatMessage(template: string, params: JsonValue[] | JsonObject): string {
  const out: string[] = [];
  let next = 0;
  let i = 0;
  let literalStart = 0;
  const max = MAX_CHARS.message;
  let length = 0;
  while (i < template.length && length < max) {
    if (template.charCodeAt(i) !== 0x25 /* % */) {
      i++;
      continue;
    }
    const start = i;
    let j = i + 1;
    if (template[j] === "%") {
      out.push(template.slice(literalStart, start), "%");
      length += start - literalStart + 1;
      i = literalStart = j + 1;
      continue;
    }
    let name: string | undefined;
    if (template[j] === "(") {
      const close = template.indexOf(")", j + 1);
      if (close === -1 || close - j - 1 > MAX_NAME) {
        i = j;
        continue;
      }
      name = template.slice(j + 1, close);
      j = close + 1;
    }
    while (j < template.length && FLAGS.has(template[j] ?? "")) j++;
    while (j < template.length && isDigit(template.charCodeAt(j))) j++;
    if (template[j] === ".") {
      j++;
      while (j < template.length && isDigit(template.charCodeAt(j))) j++;
    }
    const conversion = template[j];
    if (conversion === undefined || !CONVERSIONS.has(conversion)) {
      i = start + 1;
      continue;
    }
    let param: JsonValue | undefined;
    let found = false;
    if (name !== undefined) {
      if (!Array.isArray(params) && Object.hasOwn(params, name)) {
        param = params[name];
        found = true;
      }
    } else if (Array.isArray(params) && next < params.length) {
      param = params[next++];
      found = true;
    }
    if (!found) {
      i = j + 1;
      continue;
    }
    const text = render(param, conversion);
    out.push(template.slice(literalStart, start), text);
    length += start - literalStart + text.length;
    i = literalStart = j + 1;
  }
  out.push(template.slice(literalStart));
  return cleanString(out.join(""), max);
}

function readParams(value: unknown): JsonValue[] | JsonObject | undefined {
  if (!Array.isArray(value) && !isObject(value)) return undefined;
  const trimmed = trimValue(value, BAGS.logParams);
  return Array.isArray(trimmed) || isObject(trimmed) ? (trimmed as JsonValue[] | JsonObject) : undefined;
}

function fromObject(source: Record<string, unknown>): LogEntry | undefined {
  const template = typeof source.message === "string" ? cleanString(source.message, MAX_CHARS.message) : undefined;
  const sentFormatted = typeof source.formatted === "string" && source.formatted !== "" ? source.formatted : undefined;
  const params = readParams(source.params);
  let formatted: string | undefined;
  if (sentFormatted !== undefined) formatted = cleanString(sentFormatted, MAX_CHARS.message);
  else if (template !== undefined && params !== undefined) formatted = formatMessage(template, params);
  else formatted = template;
  if (formatted === undefined || formatted === "") return undefined;
  const entry: LogEntry = { formatted };
  if (template !== undefined && template !== "") entry.message = template;
  if (params !== undefined) entry.params = params;
  return entry;
}

/**
 * One `logentry` from the event's `logentry` and `message` fields; `logentry` wins when both
 * are present, as in Relay.
 */
export function normalizeLogEntry(logentry: unknown, message: unknown): LogEntry | undefined {
  if (isObject(logentry)) {
    const entry = fromObject(logentry);
    if (entry) return entry;
  }
  if (isObject(message)) return fromObject(message);
  if (typeof message === "string" && message !== "") return { formatted: cleanString(message, MAX_CHARS.message) };
  return undefined;
}
