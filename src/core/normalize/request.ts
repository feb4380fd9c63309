/**
 * The `request` and `user` interfaces (develop docs: request.mdx, user.mdx). Headers, cookies
 * and the query string arrive as objects, pair lists or raw strings and leave as pair lists;
 * the URL's query and fragment are split off (as Relay does) so scrubbing sees each parameter.
 */
import { isIP } from "node:net";
import { BAGS, MAX_CHARS, MAX_COUNT } from "./limits";
import { trimObject, trimValue } from "./databag";
import type { Pairs, Request, User } from "./types";
import {
  cleanString,
  forEachEntry,
  isObject,
  readLenientString,
  readString,
  readTrimmed,
  setKey,
  type RawObject,
  type Warnings,
} from "./values";

/** `content-type` → `Content-Type`, as Relay normalizes header names. */
export function titleCaseHeader(name: string): string {
  let out = "";
  let upper = true;
  for (let i = 0; i < name.length; i++) {
    const ch = name[i] ?? "";
    out += upper ? ch.toUpperCase() : ch.toLowerCase();
    upper = ch === "-";
  }
  return out;
}

function decode(text: string): string {
  const plus = text.includes("+") ? text.replaceAll("+", " ") : text;
  if (!plus.includes("%")) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** Splits `text` on `separator` into at most `max` name/value pairs without splitting it all first. */
function splitPairs(text: string, separator: string, max: number, decodeParts: boolean, maxValue: number): Pairs {
  const pairs: Pairs = [];
  let start = 0;
  while (start <= text.length && pairs.length < max) {
    let end = text.indexOf(separator, start);
    if (end === -1) end = text.length;
    const part = text.slice(start, end).trim();
    start = end + 1;
    if (part === "") continue;
    const eq = part.indexOf("=");
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    const name = cleanString(decodeParts ? decode(rawName) : rawName, MAX_CHARS.enumLike);
    if (name === "") continue;
    pairs.push([name, cleanString(decodeParts ? decode(rawValue) : rawValue, maxValue)]);
  }
  return pairs;
}

/** A value of a pair: strings as they are, numbers and booleans stringified, lists joined. */
function pairValue(value: unknown, maxValue: number): string | undefined {
  if (Array.isArray(value)) {
    const parts: string[] = [];
    for (let i = 0; i < value.length && i < MAX_COUNT.pairs; i++) {
      const part = readLenientString(value[i], maxValue);
      if (part !== undefined) parts.push(part);
    }
    return cleanString(parts.join(", "), maxValue);
  }
  if (typeof value === "string") return cleanString(value, maxValue);
  return readLenientString(value, maxValue);
}

/** Pairs from an object, a pair list or (when `separator` is given) a raw string. */
function readPairs(raw: unknown, maxValue: number, separator?: string, decodeParts = false): Pairs | undefined {
  let pairs: Pairs = [];
  if (typeof raw === "string") {
    if (separator === undefined) return undefined;
    const text = separator === "&" && raw.startsWith("?") ? raw.slice(1) : raw;
    pairs = splitPairs(text, separator, MAX_COUNT.pairs, decodeParts, maxValue);
  } else if (Array.isArray(raw)) {
    for (let i = 0; i < raw.length && pairs.length < MAX_COUNT.pairs; i++) {
      const pair: unknown = raw[i];
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string" || pair[0] === "") continue;
      const value = pairValue(pair[1], maxValue);
      if (value !== undefined) pairs.push([cleanString(pair[0], MAX_CHARS.enumLike), value]);
    }
  } else if (isObject(raw)) {
    forEachEntry(raw, MAX_COUNT.pairs, (name, value) => {
      const v = pairValue(value, maxValue);
      if (name !== "" && v !== undefined) pairs.push([cleanString(name, MAX_CHARS.enumLike), v]);
    });
  } else {
    return undefined;
  }
  return pairs.length > 0 ? pairs : undefined;
}

const MAX_PARSED_BODY = 256 * 1024;

/** Request bodies: parsed JSON or form data when possible (so keys can be scrubbed), else text. */
function readBody(raw: unknown, contentType: string | undefined, request: Request): void {
  if (typeof raw === "string") {
    const text = raw.trim();
    if (text === "") return;
    const type = contentType?.toLowerCase() ?? "";
    if (text.length <= MAX_PARSED_BODY && (type.includes("json") || text.startsWith("{") || text.startsWith("["))) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === "object") {
          const data = trimValue(parsed, BAGS.requestData);
          if (data !== undefined) request.data = data;
          request.inferred_content_type = "application/json";
          return;
        }
      } catch {
        // not JSON after all: kept as text below
      }
    }
    if (type.includes("application/x-www-form-urlencoded")) {
      const form: Record<string, string> = {};
      for (const [name, value] of splitPairs(text, "&", MAX_COUNT.pairs, true, BAGS.requestData.bytes)) {
        if (!Object.hasOwn(form, name)) setKey(form, name, value);
      }
      const data = trimValue(form, BAGS.requestData);
      if (data !== undefined) request.data = data;
      request.inferred_content_type = "application/x-www-form-urlencoded";
      return;
    }
    request.data = cleanString(text, BAGS.requestData.bytes);
    return;
  }
  const data = trimValue(raw, BAGS.requestData);
  if (data !== undefined && data !== null) request.data = data;
}

export function normalizeRequest(raw: unknown): Request | undefined {
  if (!isObject(raw)) return undefined;
  const request: Request = {};

  let url = typeof raw.url === "string" ? raw.url : undefined;
  let urlQuery: string | undefined;
  if (url !== undefined) {
    const hash = url.indexOf("#");
    if (hash !== -1) {
      const fragment = url.slice(hash + 1);
      if (fragment !== "") request.fragment = cleanString(fragment, MAX_CHARS.url);
      url = url.slice(0, hash);
    }
    const question = url.indexOf("?");
    if (question !== -1) {
      urlQuery = url.slice(question + 1);
      url = url.slice(0, question);
    }
    if (url !== "") request.url = cleanString(url, MAX_CHARS.url);
  }
  const method = readTrimmed(raw.method, 32);
  if (method !== undefined) request.method = method.toUpperCase();
  const fragment = readString(raw.fragment, MAX_CHARS.url);
  if (fragment !== undefined) request.fragment = fragment;

  const query = readPairs(raw.query_string ?? urlQuery, MAX_CHARS.queryValue, "&", true);
  if (query) request.query_string = query;

  let cookieHeader: string | undefined;
  let contentType: string | undefined;
  const headers = readPairs(raw.headers, MAX_CHARS.headerValue);
  if (headers) {
    const kept: Pairs = [];
    for (const [name, value] of headers) {
      const header = titleCaseHeader(name);
      // The Cookie header is moved to `cookies`, where each cookie can be scrubbed by name.
      if (header === "Cookie") cookieHeader ??= value;
      else kept.push([header, value]);
      if (header === "Content-Type") contentType = value;
    }
    if (kept.length > 0) request.headers = kept;
  }
  const cookies = readPairs(raw.cookies ?? cookieHeader, MAX_CHARS.cookieValue, ";");
  if (cookies) request.cookies = cookies;

  readBody(raw.data, contentType, request);
  const env = trimObject(raw.env, BAGS.requestEnv);
  if (env !== undefined) request.env = env;
  return Object.keys(request).length > 0 ? request : undefined;
}

/** A valid IP address (v4 or v6), or `undefined`. */
export function readIp(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  const ip = value.trim();
  return isIP(ip) !== 0 ? ip : undefined;
}

const USER_KEYS = new Set(["id", "email", "username", "name", "ip_address", "segment", "geo", "data"]);

/**
 * The user. `ip_address` must be an IP; `"{{auto}}"` asks the server to use the connection's
 * address (`clientIp`). Keys Sentry does not define are kept under `data`, as Relay does.
 */
export function normalizeUser(raw: unknown, clientIp: string | undefined, warnings: Warnings): User | undefined {
  if (!isObject(raw)) return undefined;
  const user: User = {};
  const id = readLenientString(raw.id, MAX_CHARS.hash);
  if (id !== undefined) user.id = id;
  const email = readTrimmed(raw.email, MAX_CHARS.email);
  if (email !== undefined) user.email = email;
  const username = readLenientString(raw.username, MAX_CHARS.hash);
  if (username !== undefined) user.username = username;
  const name = readString(raw.name, MAX_CHARS.hash);
  if (name !== undefined) user.name = name;
  const segment = readString(raw.segment, MAX_CHARS.enumLike);
  if (segment !== undefined) user.segment = segment;

  if (raw.ip_address === "{{auto}}") {
    if (clientIp !== undefined) user.ip_address = clientIp;
  } else if (raw.ip_address !== undefined && raw.ip_address !== null) {
    const ip = readIp(raw.ip_address);
    if (ip !== undefined) user.ip_address = ip;
    else warnings.add("user.ip_address: not an IP address; dropped");
  }

  if (isObject(raw.geo)) {
    const geo: NonNullable<User["geo"]> = {};
    for (const key of ["city", "country_code", "region", "subdivision"] as const) {
      const value = readString(raw.geo[key], MAX_CHARS.enumLike);
      if (value !== undefined) geo[key] = value;
    }
    if (Object.keys(geo).length > 0) user.geo = geo;
  }

  const extra: RawObject = isObject(raw.data) ? { ...raw.data } : {};
  let hasExtra = Object.keys(extra).length > 0;
  forEachEntry(raw, MAX_COUNT.bagBreadth, (key, value) => {
    if (USER_KEYS.has(key)) return;
    setKey(extra, key, value);
    hasExtra = true;
  });
  if (hasExtra) {
    const data = trimObject(extra, BAGS.userData);
    if (data !== undefined && Object.keys(data).length > 0) user.data = data;
  }
  return Object.keys(user).length > 0 ? user : undefined;
}
