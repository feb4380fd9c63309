/**
 * Readers for the event fields filters look at. The event is untrusted JSON: every
 * reader checks the type of each value it touches, reads own properties only, and
 * returns `undefined` or an empty list rather than throwing.
 */
import { type FilterableEvent } from "./types";

/** Longest text a filter examines: Relay trims messages to 8192 characters (docs/protocol.md#event-payload). */
export const MAX_TEXT_LENGTH = 8192;
/** Exceptions of a chain read per event; the browser SDK's linked-errors default is 5. */
export const MAX_EXCEPTIONS = 64;
/** Newest frames read per exception; the browser SDK caps stacks at 50 (`Error.stackTraceLimit`). */
export const MAX_FRAMES = 256;
/** Longest user agent (or browser name) examined; real ones stay well under 512 characters. */
export const MAX_USER_AGENT_LENGTH = 1024;
/** Header pairs read from a pair list; browsers send a handful. */
export const MAX_HEADERS = 256;

type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is a plain object owning `key`; otherwise undefined. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The value if it is a non-empty string. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function clip(value: string, max = MAX_TEXT_LENGTH): string {
  return value.length > max ? value.slice(0, max) : value;
}

/** The exceptions of the event, `{values: [...]}` or a bare list, objects only. */
export function exceptions(event: FilterableEvent): JsonObject[] {
  const exception = field(event, "exception");
  const values = Array.isArray(exception) ? exception : field(exception, "values");
  if (!Array.isArray(values)) return [];
  return values.slice(0, MAX_EXCEPTIONS).filter(isObject);
}

/** The newest frames of an exception's stack trace, oldest first, objects only. */
export function frames(exception: JsonObject): JsonObject[] {
  const list = field(field(exception, "stacktrace"), "frames");
  if (!Array.isArray(list)) return [];
  return list.slice(-MAX_FRAMES).filter(isObject);
}

/** Where a frame's code came from: `abs_path`, or `filename` (what the browser SDK sends). */
export function frameUrl(frame: JsonObject): string | undefined {
  const url = text(field(frame, "abs_path")) ?? text(field(frame, "filename"));
  return url === undefined ? undefined : clip(url);
}

/** The URL of the frame that threw: the newest one that is not a native or anonymous frame. */
export function crashFrameUrl(exception: JsonObject): string | undefined {
  const list = frames(exception);
  for (let i = list.length - 1; i >= 0; i--) {
    const frame = list[i];
    const url = frame && frameUrl(frame);
    if (url && url !== "<anonymous>" && url !== "[native code]") return url;
  }
  return undefined;
}

/**
 * Every text that can name the error: the message, the log entry, and per exception its
 * value and "Type: value" (or the type alone), as the SDK's `ignoreErrors` and Sentry's
 * error-message filter read them. Each is cut to `MAX_TEXT_LENGTH`.
 */
export function eventMessages(event: FilterableEvent): string[] {
  const out: string[] = [];
  const add = (value: unknown): void => {
    const s = text(value);
    if (s !== undefined) out.push(clip(s));
  };
  const message = field(event, "message");
  add(message);
  add(field(message, "formatted"));
  add(field(message, "message"));
  const logentry = field(event, "logentry");
  add(field(logentry, "formatted"));
  add(field(logentry, "message"));
  for (const exception of exceptions(event)) {
    const type = text(field(exception, "type"));
    const value = text(field(exception, "value"));
    if (value !== undefined) add(value);
    if (type !== undefined) add(value === undefined ? type : `${clip(type)}: ${clip(value)}`);
  }
  return out;
}

/** A request header by name, case-insensitively, from a header object or a pair list. */
export function requestHeader(event: FilterableEvent, name: string): string | undefined {
  const headers = field(field(event, "request"), "headers");
  const wanted = name.toLowerCase();
  if (Array.isArray(headers)) {
    for (const pair of headers.slice(0, MAX_HEADERS)) {
      if (Array.isArray(pair) && typeof pair[0] === "string" && pair[0].toLowerCase() === wanted) {
        const value = text(pair[1]);
        if (value !== undefined) return value;
      }
    }
    return undefined;
  }
  if (!isObject(headers)) return undefined;
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) {
      const value = text(headers[key]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** The `User-Agent` request header, cut to `MAX_USER_AGENT_LENGTH`. */
export function userAgent(event: FilterableEvent): string | undefined {
  const ua = requestHeader(event, "user-agent");
  return ua === undefined ? undefined : clip(ua, MAX_USER_AGENT_LENGTH);
}

/** `contexts.browser` name and version, when they are strings. */
export function browserContext(event: FilterableEvent): { name?: string; version?: string } {
  const browser = field(field(event, "contexts"), "browser");
  const name = text(field(browser, "name"));
  const version = text(field(browser, "version"));
  return {
    ...(name !== undefined ? { name: clip(name, MAX_USER_AGENT_LENGTH) } : {}),
    ...(version !== undefined ? { version: clip(version, MAX_USER_AGENT_LENGTH) } : {}),
  };
}

/** The page URL the event happened on (`request.url`). */
export function requestUrl(event: FilterableEvent): string | undefined {
  const url = text(field(field(event, "request"), "url"));
  return url === undefined ? undefined : clip(url);
}

/** The origin (`scheme://host:port`) of an absolute http(s) URL, lower-cased. */
export function httpOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    return new URL(url).origin.toLowerCase();
  } catch {
    return undefined;
  }
}
