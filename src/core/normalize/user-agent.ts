/**
 * Browser, OS and device contexts from the request's User-Agent header, as Relay derives them
 * (https://github.com/getsentry/relay/blob/master/relay-event-normalization/src/normalize/user_agent.rs):
 * a context the SDK sent is kept; for platforms other than `javascript` the UA's OS goes to
 * `client_os`, so that a server SDK's own `os` context (the server's) is not confused with
 * its client's. The parser is ua-parser-js 1.x (MIT).
 */
import UAParser from "ua-parser-js";
import { MAX_CHARS } from "./limits";
import type { JsonObject, NormalizedEvent } from "./types";
import { cleanString } from "./values";

/**
 * The UA is attacker-controlled: only its first 512 characters are parsed, so the parser's
 * regular expressions run on bounded input (real UAs are well under 300 characters).
 */
export const MAX_UA_CHARS = 512;
/** Distinct UAs remembered; a digest sees few (one per browser build), so hits are the rule. */
const CACHE_SIZE = 1000;

/** The contexts one UA string gives; empty when the parser recognises nothing in it. */
export interface UserAgentContexts {
  browser?: JsonObject;
  os?: JsonObject;
  device?: JsonObject;
}

const parser = new UAParser();
const cache = new Map<string, UserAgentContexts>();

function text(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const clean = cleanString(value.trim(), MAX_CHARS.enumLike);
  return clean === "" ? undefined : clean;
}

/** Keys with a value only: `{ name: "Chrome", version: undefined }` becomes `{ name: "Chrome" }`. */
function compact(fields: Record<string, string | undefined>): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return Object.keys(out).length > 0 ? out : undefined;
}

function parse(ua: string): UserAgentContexts {
  const result = parser.setUA(ua).getResult();
  const out: UserAgentContexts = {};
  const browserName = text(result.browser.name);
  if (browserName) out.browser = compact({ name: browserName, version: text(result.browser.version) });
  const osName = text(result.os.name);
  if (osName) out.os = compact({ name: osName, version: text(result.os.version) });
  const model = text(result.device.model);
  const vendor = text(result.device.vendor);
  // Sentry's device context: `family` and `model` name the device, `brand` its maker,
  // `device_type` its kind (https://develop.sentry.dev/sdk/data-model/event-payloads/contexts/#device-context).
  if (model || vendor) out.device = compact({ family: model ?? vendor, model, brand: vendor, device_type: text(result.device.type) });
  // Shared by every event with this UA through the cache: frozen, and copied before use.
  for (const context of Object.values(out)) Object.freeze(context);
  return Object.freeze(out);
}

/** Parses a UA string (cut to MAX_UA_CHARS), remembering the last CACHE_SIZE distinct ones. */
export function parseUserAgent(userAgent: string): UserAgentContexts {
  const ua = userAgent.length > MAX_UA_CHARS ? userAgent.slice(0, MAX_UA_CHARS) : userAgent;
  const hit = cache.get(ua);
  if (hit) {
    // Map keeps insertion order: re-inserting marks the entry most recently used.
    cache.delete(ua);
    cache.set(ua, hit);
    return hit;
  }
  const parsed = parse(ua);
  cache.set(ua, parsed);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value ?? ua);
  return parsed;
}

function userAgentHeader(event: NormalizedEvent): string | undefined {
  for (const [name, value] of event.request?.headers ?? []) if (name === "User-Agent") return value;
  return undefined;
}

/** Adds the contexts the event's User-Agent gives where the event has none of its own. */
export function applyUserAgent(event: NormalizedEvent): void {
  const ua = userAgentHeader(event);
  if (ua === undefined || ua.trim() === "") return;
  const parsed = parseUserAgent(ua);
  const osKey = event.platform === "javascript" ? "os" : "client_os";
  const add = (key: string, context: JsonObject | undefined) => {
    if (!context || event.contexts?.[key] !== undefined) return;
    // A fresh object per event: later steps (scrubbing) may change an event's contexts in place.
    event.contexts = { ...event.contexts, [key]: { ...context } };
  };
  add("browser", parsed.browser);
  add(osKey, parsed.os);
  add("device", parsed.device);
}
