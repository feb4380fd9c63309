import type { IssueTagKey } from "../../core/issues/issue-tags";
import type { TagValueCount } from "../../core/ports/issue-reader";

/** Names Sentry's API gives the built-in keys; any other key is titled from its own spelling. */
const KEY_NAMES: Record<string, string> = {
  user: "User",
  release: "Release",
  dist: "Distribution",
  os: "OS",
  url: "URL",
  server_name: "Server",
};

/** A tag key's `name`, as Sentry shows it: `flavors` is "Flavors", `server_name` "Server". */
export function tagKeyName(key: string): string {
  return KEY_NAMES[key] ?? key.replaceAll("_", " ").replace(/(^|[\s.:-])(\p{Ll})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** One value of a tag, Sentry's `{key, name, value, count, lastSeen, firstSeen}` (`key` is the tag key). */
export function serializeTagValue(key: string, v: TagValueCount) {
  return {
    key,
    name: v.value,
    value: v.value,
    count: v.count,
    lastSeen: new Date(v.lastSeen).toISOString(),
    firstSeen: new Date(v.firstSeen).toISOString(),
  };
}

/** A key of an issue's tags, as Sentry's "Retrieve Tag Details" answers it. */
export function serializeIssueTagKey(t: IssueTagKey) {
  return {
    key: t.key,
    name: tagKeyName(t.key),
    uniqueValues: t.uniqueValues,
    totalValues: t.totalValues,
    topValues: t.topValues.map((v) => serializeTagValue(t.key, v)),
  };
}

/** A key of a project's or organization's tags: `{key, name, totalValues}`. */
export const serializeTagKey = (t: { key: string; totalValues: number }) => ({
  key: t.key,
  name: tagKeyName(t.key),
  totalValues: t.totalValues,
});
