/**
 * Suggestions for the search box while typing: pure, so the client component and tests
 * share it. The term under the caret decides: no colon yet → keys; `key:` → values.
 */
import { IS_VALUES, LEVELS } from "./ast";

/** The keys offered first, in Sentry's search-bar order of usefulness (see keys.ts for meaning). */
export const SUGGESTED_KEYS = [
  "is",
  "level",
  "assigned",
  "bookmarks",
  "has",
  "release",
  "environment",
  "browser.name",
  "os.name",
  "firstSeen",
  "lastSeen",
  "times_seen",
  "user_count",
  "firstRelease",
  "title",
  "message",
  "error.type",
  "error.value",
  "issue.priority",
] as const;

/** Values known without looking at data; tag keys get theirs from the org's issue tags. */
const FIXED_VALUES: Record<string, readonly string[]> = {
  is: IS_VALUES,
  level: LEVELS,
  assigned: ["me", "none"],
  bookmarks: ["me"],
  firstSeen: ["-1h", "-24h", "-7d", "-30d"],
  lastSeen: ["-1h", "-24h", "-7d", "-30d"],
  times_seen: [">10", ">100", ">1000"],
  user_count: [">1", ">10", ">100"],
  "issue.priority": ["high", "medium", "low"],
};

export const MAX_SUGGESTIONS = 8;

export interface Suggestion {
  /** What the list shows. */
  label: string;
  /** The query after choosing it, and where the caret goes. */
  text: string;
  caret: number;
}

/** The term around the caret: from the previous whitespace to the caret. */
function termAt(text: string, caret: number): { start: number; term: string } {
  let start = caret;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  return { start, term: text.slice(start, caret) };
}

const quote = (v: string) => (/[\s"]/.test(v) || v === "" ? `"${v.replaceAll('"', '\\"')}"` : v);

export function suggest(text: string, caret: number, tagValues: Readonly<Record<string, readonly string[]>>): Suggestion[] {
  const { start, term } = termAt(text, caret);
  let end = caret;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const rest = text.slice(end);
  // A leading `!` negates the term; keep it and suggest for what follows.
  const bang = term.startsWith("!") ? "!" : "";
  const body = term.slice(bang.length);
  const colon = body.indexOf(":");
  const replace = (insert: string) => {
    const before = text.slice(0, start) + bang + insert;
    return { text: before + rest, caret: before.length };
  };
  if (colon < 0) {
    if (body === "") return [];
    const lower = body.toLowerCase();
    const keys = [...new Set([...SUGGESTED_KEYS, ...Object.keys(tagValues)])];
    return keys
      .filter((k) => k.toLowerCase().startsWith(lower) && k.toLowerCase() !== lower)
      .slice(0, MAX_SUGGESTIONS)
      .map((k) => ({ label: `${k}:`, ...replace(`${k}:`) }));
  }
  const key = body.slice(0, colon);
  const typed = body
    .slice(colon + 1)
    .replace(/^"/, "")
    .toLowerCase();
  const values = key === "has" ? Object.keys(tagValues) : (FIXED_VALUES[key] ?? tagValues[key] ?? []);
  return (
    values
      .filter((v) => v.toLowerCase().startsWith(typed) && v.toLowerCase() !== typed)
      .slice(0, MAX_SUGGESTIONS)
      // A chosen value ends the term: add the space that starts the next one, unless it is there.
      .map((v) => ({ label: v, ...replace(`${key}:${quote(v)}${/^\s/.test(rest) ? "" : " "}`) }))
  );
}
