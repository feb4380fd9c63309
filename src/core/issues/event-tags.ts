import type { NormalizedEvent } from "../normalize/types";
import { str } from "../digest/read";

const MAX_TAGS = 60;
const MAX_VALUE = 200;

/**
 * A tag value as one line: control characters (a trailing newline in a context's `version`,
 * as real SDKs send for `os`) become spaces, and outer whitespace goes. Every tag,
 * derived or sent, passes through it, so the issue's distribution never holds two spellings.
 */
export const tagText = (value: string): string => value.replace(/\p{Cc}+/gu, " ").trim();

/**
 * The tags an issue is indexed by for one event: the SDK's own tags plus the ones Sentry
 * derives (level, release, environment, user, browser, os, runtime, url, …), so that the
 * issue stream can search and the issue page can show a distribution for each.
 */
export function eventTags(event: NormalizedEvent): Array<[string, string]> {
  const out = new Map<string, string>();
  const add = (key: string, value: unknown) => {
    if (out.size >= MAX_TAGS || out.has(key)) return;
    if (typeof value === "number" || typeof value === "boolean") value = String(value);
    if (typeof value !== "string") return;
    const text = tagText(value);
    if (text === "") return;
    out.set(key, text.length > MAX_VALUE ? text.slice(0, MAX_VALUE) : text);
  };
  /** A context field as one tag part: `tagText` of a string, else nothing. */
  const part = (value: unknown): string | undefined => (typeof value === "string" ? tagText(value) || undefined : undefined);
  add("level", event.level);
  add("release", event.release);
  add("environment", event.environment);
  add("dist", event.dist);
  add("logger", event.logger);
  add("transaction", event.transaction);
  add("server_name", event.server_name);
  const user = event.user;
  if (user) {
    const key = userKey(event);
    if (key) add("user", key);
    add("user.id", user.id);
    add("user.email", user.email);
    add("user.username", user.username);
    add("user.ip", user.ip_address);
  }
  const ctx = event.contexts ?? {};
  add("browser.name", ctx.browser?.name);
  const browser = part(ctx.browser?.name);
  const browserVersion = part(ctx.browser?.version);
  if (browser && browserVersion) add("browser", `${browser} ${browserVersion.split(".")[0]}`);
  add("os.name", ctx.os?.name);
  const os = part(ctx.os?.name);
  const osVersion = part(ctx.os?.version);
  if (os && osVersion) add("os", `${os} ${osVersion}`);
  // The OS of a server event's client, parsed from its User-Agent (normalize/user-agent.ts).
  add("client_os.name", ctx.client_os?.name);
  add("device", ctx.device?.model);
  add("device.family", ctx.device?.family);
  add("runtime.name", ctx.runtime?.name);
  const runtime = part(ctx.runtime?.name);
  const runtimeVersion = part(ctx.runtime?.version);
  if (runtime && runtimeVersion) add("runtime", `${runtime} ${runtimeVersion}`);
  if (event.request?.url) {
    add("url", event.request.url);
    try {
      add("url.domain", new URL(event.request.url).hostname);
    } catch {
      // not a URL: only the url tag
    }
  }
  const top = event.exception?.values.at(-1);
  if (top?.mechanism) {
    add("mechanism", top.mechanism.type);
    if (top.mechanism.handled !== undefined) add("handled", top.mechanism.handled ? "yes" : "no");
  }
  add("trace", ctx.trace?.trace_id);
  add("sdk.name", event.sdk?.name);
  for (const [key, value] of event.tags ?? []) add(key, value);
  return [...out.entries()];
}

/**
 * Tags whose value is new with (almost) every event: a distribution of them says nothing, and in
 * the issue's tag index they were one row per event — 39,228 of one issue's 39,300 rows at 1 M
 * bench events, and most of what the issue page and the search box's suggestions read
 * (docs/benchmarks.md). The event keeps them (`events.trace_id`, indexed), where
 * the issue search looks for them (src/db/issue-search.ts).
 */
export const PER_EVENT_TAGS: ReadonlySet<string> = new Set(["trace"]);

/** The tags an event adds to its issue's tag index: its `eventTags` without the per-event ones. */
export function issueTags(facts: EventFacts): Array<[string, string]> {
  return facts.tags.filter(([key]) => !PER_EVENT_TAGS.has(key));
}

/** Who an event happened to, for counting distinct users: the first identifying field. */
export function userKey(event: NormalizedEvent): string | null {
  const u = event.user;
  if (!u) return null;
  if (u.id) return `id:${u.id}`;
  if (u.email) return `email:${u.email}`;
  if (u.username) return `username:${u.username}`;
  if (u.ip_address) return `ip:${u.ip_address}`;
  return null;
}

/**
 * What the issue step and the event's own row need of an event, apart from its grouping: small
 * and flat, so that a batch's records cross between threads cheaply (decision 0030) and the
 * writer holds no event trees. The event itself travels as its stored payload.
 */
export interface EventFacts {
  type: NormalizedEvent["type"];
  /** Seconds since the epoch, as the event gives it. */
  timestamp: number;
  level: NormalizedEvent["level"];
  release: string | null;
  environment: string | null;
  traceId: string | null;
  /** `userKey`: null when the event names no user. */
  user: string | null;
  /** `eventTags`: the tags the issue index and alert filters read, bounded. */
  tags: Array<[string, string]>;
}

export function eventFacts(event: NormalizedEvent): EventFacts {
  return {
    type: event.type,
    timestamp: event.timestamp,
    level: event.level,
    release: event.release ?? null,
    environment: event.environment ?? null,
    traceId: str(event.contexts?.trace?.trace_id) ?? null,
    user: userKey(event),
    tags: eventTags(event),
  };
}
