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
};

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
