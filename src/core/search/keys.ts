import type { DateField, NumberField, TextField } from "./ast";

/**
 * What a search key means. The aliases are Sentry's (`src/sentry/api/issue_search.py`,
 * `key_mappings`): `age` and `firstSeen` are the same property, so are `timesSeen` and
 * `times_seen`. Every key not listed here is a tag; `tags[level]:x` reaches a tag whose
 * name is also a property.
 */
export type KeySpec =
  | { kind: "is" }
  | { kind: "has" }
  | { kind: "text" }
  | { kind: "level" }
  | { kind: "priority" }
  | { kind: "number"; field: NumberField }
  | { kind: "date"; field: DateField }
  | { kind: "assigned" }
  | { kind: "bookmarks" }
  | { kind: "field"; field: TextField }
  | { kind: "tag"; key: string };

const PROPERTIES: Record<string, Exclude<KeySpec, { kind: "tag" }>> = {
  is: { kind: "is" },
  has: { kind: "has" },
  message: { kind: "text" },
  level: { kind: "level" },
  times_seen: { kind: "number", field: "times_seen" },
  timesSeen: { kind: "number", field: "times_seen" },
  user_count: { kind: "number", field: "user_count" },
  userCount: { kind: "number", field: "user_count" },
  firstSeen: { kind: "date", field: "firstSeen" },
  first_seen: { kind: "date", field: "firstSeen" },
  age: { kind: "date", field: "firstSeen" },
  lastSeen: { kind: "date", field: "lastSeen" },
  last_seen: { kind: "date", field: "lastSeen" },
  assigned: { kind: "assigned" },
  assigned_to: { kind: "assigned" },
  bookmarks: { kind: "bookmarks" },
  bookmarked_by: { kind: "bookmarks" },
  firstRelease: { kind: "field", field: "firstRelease" },
  first_release: { kind: "field", field: "firstRelease" },
  "first-release": { kind: "field", field: "firstRelease" },
  title: { kind: "field", field: "title" },
  // The exception's type and value, as the metadata keeps them.
  "error.type": { kind: "field", field: "error.type" },
  "error.value": { kind: "field", field: "error.value" },
  // Telltale has no priority of its own: derived from the level (PRIORITY_LEVELS in parse.ts).
  "issue.priority": { kind: "priority" },
};

/**
 * Tags every project may carry, whether or not an event has sent one yet: the ones the digest
 * step derives from events (src/core/issues/event-tags.ts) and `trace`. Any other key is a
 * custom tag, and a search for one that no issue of the searched projects carries is refused
 * as an unknown key rather than silently matching nothing.
 */
export const BUILTIN_TAG_KEYS: ReadonlySet<string> = new Set([
  "level",
  "release",
  "environment",
  "dist",
  "logger",
  "transaction",
  "server_name",
  "user",
  "user.id",
  "user.email",
  "user.username",
  "user.ip",
  "browser",
  "browser.name",
  "os",
  "os.name",
  "client_os.name",
  "device",
  "device.family",
  "runtime",
  "runtime.name",
  "url",
  "url.domain",
  "mechanism",
  "handled",
  "trace",
  "sdk.name",
]);

/** Characters of a plain key (Sentry's `key = [a-zA-Z0-9_.-]+`). */
export const KEY_CHAR = /[A-Za-z0-9_.-]/;
export const PLAIN_KEY = /^[A-Za-z0-9_.-]+$/;

export function keySpec(key: string): KeySpec {
  return Object.hasOwn(PROPERTIES, key) ? PROPERTIES[key]! : { kind: "tag", key };
}

/** Whether `key:` written plainly would mean the tag `key` (else it needs `tags[key]:`). */
export function isPlainTagKey(key: string): boolean {
  return PLAIN_KEY.test(key) && !Object.hasOwn(PROPERTIES, key);
}
