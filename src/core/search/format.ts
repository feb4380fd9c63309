/**
 * The canonical text of a parsed query, for links and the search box: canonical key names
 * (`age:` prints as `firstSeen:`), values quoted only when they must be, lists as `[a, b]`,
 * terms in the order they were written. `parseIssueQuery(formatIssueQuery(q))` gives `q` back.
 */
import type { Actor, IssueQuery, Term } from "./ast";
import { literalGlob } from "./glob";
import { isPlainTagKey, keySpec } from "./keys";
import { formatIsoDate } from "./values";

export function formatIssueQuery(query: IssueQuery): string {
  return query.terms.map(formatTerm).join(" ");
}

function formatTerm(term: Term): string {
  const not = term.negated ? "!" : "";
  switch (term.type) {
    case "is":
      return `${not}is:${term.value}`;
    case "has":
      return `${not}has:${hasValue(term.key)}`;
    case "text":
      return `${not}${freeText(term.value)}`;
    case "level":
      return `${not}level:${list(term.values)}`;
    case "number":
      return `${not}${term.field}:${term.op === "=" ? "" : term.op}${term.value}`;
    case "date": {
      const v = term.value;
      const text =
        v.kind === "relative" ? `${v.sign}${v.amount}${v.unit}` : `${v.op === "=" ? "" : v.op}${formatIsoDate(v.ms, v.precision)}`;
      return `${not}${term.field}:${text}`;
    }
    case "assigned":
    case "bookmarks":
      return `${not}${term.type}:${list(term.values.map(actor))}`;
    case "field":
      return `${not}${term.field}:${list(term.values)}`;
    case "tag":
      return `${not}${isPlainTagKey(term.key) ? term.key : `tags[${term.key}]`}:${list(term.values)}`;
  }
}

function actor(a: Actor): string {
  if (a.kind === "team") return `#${a.slug}`;
  return a.kind === "email" ? literalGlob(a.email) : a.kind;
}

function hasValue(key: string): string {
  const spec = keySpec(key);
  // A tag named like a property (`has:tags[assigned]`) must say it is a tag.
  return value(spec.kind === "tag" || spec.kind === "level" ? literalGlob(key) : `tags[${literalGlob(key)}]`, false);
}

function list(globs: readonly string[]): string {
  return globs.length === 1 ? value(globs[0]!, false) : `[${globs.map((g) => value(g, true)).join(", ")}]`;
}

const WHITESPACE = /\s/;

/** A value after `key:`, bare when reading it back bare gives the same glob. */
function value(glob: string, inList: boolean): string {
  const bare = glob !== "" && !WHITESPACE.test(glob) && !glob.includes('"') && !glob.startsWith("[") && !(inList && /[,\]]/.test(glob));
  return bare ? glob : quote(glob);
}

/** Free text is bare only when it cannot be mistaken for a filter, a negation or OR/AND. */
function freeText(glob: string): string {
  const bare = value(glob, false) === glob && !glob.includes(":") && !glob.startsWith("!") && glob !== "OR" && glob !== "AND";
  return bare ? glob : quote(glob);
}

function quote(glob: string): string {
  return `"${glob.replaceAll('"', '\\"')}"`;
}
