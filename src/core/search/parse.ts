/**
 * Issue search queries in Sentry's syntax (docs.sentry.io/concepts/search/): `key:value`
 * terms, `!` negation, quoted values with `\"`, `key:[a, b]` lists, `*` wildcards, `has:`,
 * `is:`, comparisons on counts and dates, and free text matched against title and culprit.
 * Whitespace separates terms and every term must hold (AND). Unlike Discover, issue search
 * has no OR, AND or parentheses; a bare `OR` or `AND` is refused rather than searched for.
 *
 * A query is read in one linear pass and never throws: a bad one comes back as a message
 * that says what to write instead, with the offset where the problem starts.
 */
import { IS_VALUES, ISSUE_QUERY_LIMITS, LEVELS, type Actor, type IssueQueryLimits, type Level, type ParseResult, type Term } from "./ast";
import { globLiteral, hasWildcard } from "./glob";
import { isPlainTagKey, keySpec, type KeySpec } from "./keys";
import {
  QuerySyntaxError,
  expectTermEnd,
  isSpace,
  readBare,
  readKey,
  readQuoted,
  readValues,
  skipSpace,
  type RawKey,
  type RawValue,
  type RawValues,
} from "./scan";
import { parseActor, parseCount, parseDate } from "./values";

export { formatIssueQuery } from "./format";

export function parseIssueQuery(text: string, limits: IssueQueryLimits = ISSUE_QUERY_LIMITS): ParseResult {
  try {
    return { ok: true, query: { terms: readTerms(text, limits) } };
  } catch (e) {
    if (e instanceof QuerySyntaxError) return { ok: false, error: { message: e.message, position: e.position } };
    throw e;
  }
}

/**
 * The first C0 control or DEL, except the whitespace ones (tab, newlines, form feed):
 * PostgreSQL refuses NUL in text, and none of them belongs in a search box.
 */
function findControl(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x08 || (c >= 0x0e && c <= 0x1f) || c === 0x7f) return i;
  }
  return -1;
}

function readTerms(text: string, limits: IssueQueryLimits): Term[] {
  if (text.length > limits.maxLength) {
    throw new QuerySyntaxError(
      `The query is ${text.length} characters long; the limit is ${limits.maxLength} — remove some terms`,
      limits.maxLength,
    );
  }
  const control = findControl(text);
  if (control >= 0) {
    const code = text.charCodeAt(control).toString(16).toUpperCase().padStart(4, "0");
    throw new QuerySyntaxError(`The query contains a control character (U+${code}) at position ${control} — remove it`, control);
  }
  const terms: Term[] = [];
  for (let i = skipSpace(text, 0); i < text.length; i = skipSpace(text, i)) {
    if (terms.length === limits.maxTerms) {
      throw new QuerySyntaxError(
        `The query has more than ${limits.maxTerms} terms — remove some, or match several values of one key with key:[a, b]`,
        i,
      );
    }
    const read = readTerm(text, i);
    terms.push(read.term);
    i = read.end;
  }
  return terms;
}

function readTerm(text: string, start: number): { term: Term; end: number } {
  const negated = text[start] === "!";
  const at = negated ? start + 1 : start;
  if (negated && (at >= text.length || isSpace(text[at]))) {
    throw new QuerySyntaxError(`A lone "!" at position ${start} negates nothing — put it right before a term, like !level:info`, start);
  }
  const key = readKey(text, at);
  if (key) {
    const spec: KeySpec = key.explicitTag ? { kind: "tag", key: key.name } : keySpec(key.name);
    const raw = readValues(text, key.valueStart, key.label, spec.kind === "tag");
    return { term: interpret(spec, negated, key, raw), end: raw.end };
  }
  if (text[at] === '"') {
    const q = readQuoted(text, at);
    expectTermEnd(text, q.end, "closing quote");
    if (q.glob === "") throw new QuerySyntaxError(`Empty quotes at position ${at} — put the text to search for between them`, at);
    return { term: { type: "text", negated, value: q.glob }, end: q.end };
  }
  const word = readBare(text, at, false);
  if (word.glob === "OR" || word.glob === "AND") {
    throw new QuerySyntaxError(
      `${word.glob} is not supported in issue search: all terms must match. To search for the word itself, quote it: "${word.glob}"`,
      at,
    );
  }
  return { term: { type: "text", negated, value: word.glob }, end: word.end };
}

function interpret(spec: KeySpec, negated: boolean, key: RawKey, raw: RawValues): Term {
  const label = key.label;
  for (const v of raw.values) {
    if (v.glob === "") {
      const has = isPlainTagKey(key.name) || key.name === "level" ? key.name : `tags[${key.name}]`;
      const hint = spec.kind === "tag" ? ` — to find issues without this tag, use !has:${has}` : "";
      throw new QuerySyntaxError(`Empty value after "${label}"${hint}`, v.start);
    }
  }
  switch (spec.kind) {
    case "is": {
      const v = single(raw, label, "is:unresolved");
      const lit = globLiteral(v.glob).toLowerCase();
      if (!isOneOf(IS_VALUES, lit)) {
        throw new QuerySyntaxError(`Unknown status "${globLiteral(v.glob)}" in ${label}${v.source} — use ${wordList(IS_VALUES)}`, v.start);
      }
      return { type: "is", negated, value: lit };
    }
    case "has":
      return { type: "has", negated, key: hasKey(single(raw, label, "has:user.email"), label) };
    case "text":
      return { type: "text", negated, value: single(raw, label, `${label}"cannot read"`).glob };
    case "level":
      return { type: "level", negated, values: raw.values.map((v) => level(v, label)) };
    case "priority":
      return { type: "level", negated, values: raw.values.flatMap((v) => PRIORITY_LEVELS[priority(v, label)]) };
    case "number": {
      const v = single(raw, label, `${label}>10`);
      const n = parseCount(globLiteral(v.glob));
      if (!n || hasWildcard(v.glob)) {
        throw new QuerySyntaxError(
          `Invalid number "${globLiteral(v.glob)}" in ${label}${v.source} — use a whole number with an optional >, >=, < or <=, like ${label}>10`,
          v.start,
        );
      }
      return { type: "number", negated, field: spec.field, ...n };
    }
    case "date": {
      const v = single(raw, label, `${label}-24h`);
      const d = parseDate(globLiteral(v.glob));
      if (d.ok && !hasWildcard(v.glob)) return { type: "date", negated, field: spec.field, value: d.value };
      const message =
        !d.ok && d.reason === "relative-with-operator"
          ? `A relative time takes no operator: use ${label}-24h (in the last 24 hours) or ${label}+24h (more than 24 hours ago)`
          : `Invalid date "${globLiteral(v.glob)}" in ${label}${v.source} — use a relative time like -24h or +7d (units m, h, d, w), or an ISO date like 2024-05-01 or 2024-05-01T10:00:00Z, optionally after >, >=, < or <=`;
      throw new QuerySyntaxError(message, v.start);
    }
    case "assigned":
    case "bookmarks":
      return { type: spec.kind, negated, values: raw.values.map((v) => actor(v, label, spec.kind === "assigned")) };
    case "field":
      return { type: "field", negated, field: spec.field, values: raw.values.map((v) => v.glob) };
    case "tag":
      return { type: "tag", negated, key: spec.key, values: raw.values.map((v) => v.glob) };
  }
}

function single(raw: RawValues, label: string, example: string): RawValue {
  if (raw.list || raw.values.length !== 1) {
    throw new QuerySyntaxError(`${label} takes a single value, not a list — like ${example}`, raw.values[0]?.start ?? raw.end);
  }
  return raw.values[0]!;
}

function isOneOf<T extends string>(options: readonly T[], value: string): value is T {
  return (options as readonly string[]).includes(value);
}

function wordList(words: readonly string[]): string {
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

function level(v: RawValue, label: string): Level {
  const lit = globLiteral(v.glob).toLowerCase();
  if (isOneOf(LEVELS, lit)) return lit;
  throw new QuerySyntaxError(`Unknown level "${globLiteral(v.glob)}" in ${label}${v.source} — use ${wordList(LEVELS)}`, v.start);
}

/**
 * `issue.priority:` as levels: Telltale keeps no priority, so it is derived from the level the
 * way Sentry sets an issue's initial priority (fatal and error high, warning medium, the rest low).
 */
export const PRIORITY_LEVELS = { high: ["fatal", "error"], medium: ["warning"], low: ["info", "debug"] } as const satisfies Record<
  string,
  readonly Level[]
>;
const PRIORITIES = Object.keys(PRIORITY_LEVELS) as (keyof typeof PRIORITY_LEVELS)[];

function priority(v: RawValue, label: string): keyof typeof PRIORITY_LEVELS {
  const lit = globLiteral(v.glob).toLowerCase();
  if (isOneOf(PRIORITIES, lit)) return lit;
  throw new QuerySyntaxError(`Unknown priority "${globLiteral(v.glob)}" in ${label}${v.source} — use ${wordList(PRIORITIES)}`, v.start);
}

/** Keys `has:` cannot check: properties every issue has, or that have their own syntax. */
const HAS_INSTEAD: Partial<Record<KeySpec["kind"], string>> = {
  assigned: "is:assigned or is:unassigned",
  bookmarks: "bookmarks:me or is:bookmarked",
};

function hasKey(v: RawValue, label: string): string {
  const lit = globLiteral(v.glob);
  if (hasWildcard(v.glob)) throw new QuerySyntaxError(`${label} takes a tag name without wildcards, like has:user.email`, v.start);
  const explicit = /^tags\[([^\]]+)\]$/.exec(lit);
  if (explicit) return explicit[1]!;
  const spec = keySpec(lit);
  // `level` is both the issue's column and a tag on every event: has:level checks the tag.
  if (spec.kind === "tag" || spec.kind === "level") return lit;
  const instead = HAS_INSTEAD[spec.kind];
  throw new QuerySyntaxError(
    `${label}${v.source} is not supported — has: checks that an issue has a tag, like has:user.email or has:release${instead ? `; use ${instead}` : ""}`,
    v.start,
  );
}

function actor(v: RawValue, label: string, isAssignee: boolean): Actor {
  const lit = globLiteral(v.glob);
  const parsed = hasWildcard(v.glob) ? ({ ok: false, reason: "unknown" } as const) : parseActor(lit, isAssignee);
  if (parsed.ok) return parsed.actor;
  const options = isAssignee ? "me, none, a #team or a member's email" : "me or a member's email";
  const message =
    parsed.reason === "team"
      ? isAssignee
        ? `Name one team in ${label}${v.source}, like #backend — or use ${options}`
        : `Teams are not supported in ${label}${v.source} — use ${options}`
      : `Unknown ${isAssignee ? "assignee" : "user"} "${lit}" in ${label}${v.source} — use ${options}`;
  throw new QuerySyntaxError(message, v.start);
}

export type { IssueQuery, ParseResult, QueryError, Term } from "./ast";
