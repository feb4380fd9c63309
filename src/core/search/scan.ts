/**
 * Character-level reading of a query: quoted and bare values, lists, keys. One pass, no
 * regular expression over the whole input, so that the time is linear in its length.
 */
import { KEY_CHAR } from "./keys";

/** Thrown inside the parser only; parseIssueQuery turns it into `{ ok: false, error }`. */
export class QuerySyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "QuerySyntaxError";
  }
}

/** A value as written: `glob` in the language of glob.ts, `source` the text it was read from. */
export interface RawValue {
  glob: string;
  start: number;
  source: string;
}

export interface RawValues {
  values: RawValue[];
  list: boolean;
  end: number;
}

export interface RawKey {
  name: string;
  /** `tags[name]:`: always a tag, even when `name` is a property. */
  explicitTag: boolean;
  /** The key as written, with its colon (`level:`), for messages. */
  label: string;
  valueStart: number;
}

const SPACE = /\s/;
export const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.test(c);

export function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/**
 * One backslash escape: `\"` is a quote, `\*` and `\\` stay escaped in the glob, and a
 * backslash before anything else is a literal backslash (as in Sentry's search).
 */
function readEscape(text: string, i: number): { glob: string; end: number } {
  const next = text[i + 1];
  if (next === '"') return { glob: '"', end: i + 2 };
  if (next === "*" || next === "\\") return { glob: `\\${next}`, end: i + 2 };
  return { glob: "\\\\", end: i + 1 };
}

/** A `"…"` value starting at its opening quote. */
export function readQuoted(text: string, start: number): { glob: string; end: number } {
  const read = readUntil(text, start + 1, (c) => c === '"');
  if (read.end < text.length) return { glob: read.glob, end: read.end + 1 };
  throw new QuerySyntaxError(`Unterminated quote at position ${start} — close it with " (write \\" for a quote inside)`, start);
}

/** An unquoted value: up to whitespace, or to `,` and `]` inside a list. */
export function readBare(text: string, start: number, inList: boolean): { glob: string; end: number } {
  return readUntil(text, start, (c) => isSpace(c) || (inList && (c === "," || c === "]")));
}

/** Characters from `start` up to the first unescaped one that `stops` (or the end), escapes read. */
function readUntil(text: string, start: number, stops: (c: string) => boolean): { glob: string; end: number } {
  let glob = "";
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (stops(c)) break;
    if (c === "\\") {
      const e = readEscape(text, i);
      glob += e.glob;
      i = e.end;
    } else {
      glob += c;
      i++;
    }
  }
  return { glob, end: i };
}

/** After a closing quote or bracket the term must end. */
export function expectTermEnd(text: string, i: number, what: string): void {
  if (i < text.length && !isSpace(text[i])) {
    throw new QuerySyntaxError(`Unexpected "${text[i]}" after the ${what} at position ${i} — put a space between terms`, i);
  }
}

/** `key:` or `tags[key]:` at `at`, or null when the term is free text. */
export function readKey(text: string, at: number): RawKey | null {
  if (text.startsWith("tags[", at)) {
    let i = at + 5;
    while (i < text.length && text[i] !== "]" && !isSpace(text[i])) i++;
    if (i > at + 5 && text[i] === "]" && text[i + 1] === ":") {
      return { name: text.slice(at + 5, i), explicitTag: true, label: text.slice(at, i + 2), valueStart: i + 2 };
    }
    return null;
  }
  let i = at;
  while (i < text.length && KEY_CHAR.test(text[i]!)) i++;
  if (i === at || text[i] !== ":") return null;
  return { name: text.slice(at, i), explicitTag: false, label: text.slice(at, i + 1), valueStart: i + 1 };
}

/** The value(s) after `key:`: one quoted or bare value, or a `[a, "b c"]` list. */
export function readValues(text: string, at: number, label: string, isTag: boolean): RawValues {
  if (at >= text.length || isSpace(text[at])) {
    const hint = isTag ? ` — write ${label}value, or put text that contains a colon in quotes` : "";
    throw new QuerySyntaxError(`Missing value after "${label}"${hint}`, at);
  }
  if (text[at] === "[") return readList(text, at, label);
  if (text[at] === '"') {
    const q = readQuoted(text, at);
    expectTermEnd(text, q.end, "closing quote");
    return { values: [{ glob: q.glob, start: at, source: text.slice(at, q.end) }], list: false, end: q.end };
  }
  const b = readBare(text, at, false);
  return { values: [{ glob: b.glob, start: at, source: text.slice(at, b.end) }], list: false, end: b.end };
}

function readList(text: string, open: number, label: string): RawValues {
  const unclosed = () =>
    new QuerySyntaxError(`Unclosed list at position ${open} — end it with ], or put a value that starts with [ in quotes`, open);
  const values: RawValue[] = [];
  let i = skipSpace(text, open + 1);
  if (text[i] === "]") throw new QuerySyntaxError(`Empty list after "${label}" — put at least one value between the brackets`, open);
  for (;;) {
    if (i >= text.length) throw unclosed();
    if (text[i] === "," || text[i] === "]")
      throw new QuerySyntaxError(`Empty value in the list at position ${i} — remove the extra comma`, i);
    const start = i;
    if (text[i] === '"') {
      const q = readQuoted(text, i);
      const after = text[q.end];
      if (after !== undefined && after !== "," && after !== "]" && !isSpace(after)) {
        throw new QuerySyntaxError(
          `Unexpected "${after}" after the closing quote at position ${q.end} — separate list values with commas`,
          q.end,
        );
      }
      values.push({ glob: q.glob, start, source: text.slice(start, q.end) });
      i = q.end;
    } else {
      const b = readBare(text, i, true);
      values.push({ glob: b.glob, start, source: text.slice(start, b.end) });
      i = b.end;
    }
    i = skipSpace(text, i);
    if (i >= text.length) throw unclosed();
    if (text[i] === "]") break;
    if (text[i] !== ",") throw new QuerySyntaxError(`Expected "," or "]" at position ${i} — separate list values with commas`, i);
    i = skipSpace(text, i + 1);
  }
  expectTermEnd(text, i + 1, "list");
  return { values, list: true, end: i + 1 };
}
