/**
 * The parsed form of an issue search query (Sentry's issue search syntax,
 * docs.sentry.io/concepts/search/ and …/searchable-properties/issues/).
 *
 * Terms are combined with AND. Text values are globs in one small language: `*` matches any
 * run of characters, `\*` is a literal asterisk, `\\` a literal backslash, every other
 * character stands for itself (see glob.ts). Keys are stored under their canonical names, so
 * `timesSeen:>5` and `times_seen:>5` parse to the same term.
 */
export interface IssueQuery {
  terms: Term[];
}

export type Term = IsTerm | HasTerm | TextTerm | LevelTerm | NumberTerm | DateTerm | ActorTerm | FieldTerm | TagTerm;

/** `is:unresolved`, `!is:assigned`… */
export interface IsTerm {
  type: "is";
  negated: boolean;
  value: IsValue;
}

/** `has:user.email`: the issue has any value for the tag. */
export interface HasTerm {
  type: "has";
  negated: boolean;
  key: string;
}

/** Free text (`undefined`, `"cannot read"`) or `message:`: title or culprit contains the glob. */
export interface TextTerm {
  type: "text";
  negated: boolean;
  value: string;
}

/** `level:error`, `level:[fatal, error]`: the issue's level column. */
export interface LevelTerm {
  type: "level";
  negated: boolean;
  values: Level[];
}

/** `times_seen:>10`, `user_count:>=5`. */
export interface NumberTerm {
  type: "number";
  negated: boolean;
  field: NumberField;
  op: CompareOp;
  value: number;
}

/** `firstSeen:-24h`, `lastSeen:+7d`, `age:-1w`, `lastSeen:>=2024-05-01T10:00:00Z`. */
export interface DateTerm {
  type: "date";
  negated: boolean;
  field: DateField;
  value: DateValue;
}

/** `assigned:me`, `assigned:[me, none]`, `bookmarks:jane@example.com`. */
export interface ActorTerm {
  type: "assigned" | "bookmarks";
  negated: boolean;
  values: Actor[];
}

/** A text property stored on the issue itself: `firstRelease:1.0.*`, `title:"Type*"`, `error.type:TypeError`. */
export interface FieldTerm {
  type: "field";
  negated: boolean;
  field: TextField;
  values: string[];
}

/** Any other key: a tag the digest step indexed (`release:latest` is the project's newest release) (`release`, `environment`, `user.email`, `browser.name`, custom tags). */
export interface TagTerm {
  type: "tag";
  negated: boolean;
  key: string;
  values: string[];
}

export const IS_VALUES = [
  "unresolved",
  "resolved",
  "ignored",
  "archived",
  "assigned",
  "unassigned",
  "bookmarked",
  "regressed",
  "new",
  "ongoing",
  "escalating",
] as const;
export type IsValue = (typeof IS_VALUES)[number];

export const LEVELS = ["fatal", "error", "warning", "info", "debug"] as const;
export type Level = (typeof LEVELS)[number];

export type NumberField = "times_seen" | "user_count";
export type DateField = "firstSeen" | "lastSeen";
export type TextField = "firstRelease" | "title" | "error.type" | "error.value";

/** `:` alone means `=`. */
export type CompareOp = "=" | ">" | ">=" | "<" | "<=";

/** `#backend` names a team (Sentry's syntax), for assignees only. */
export type Actor = { kind: "me" } | { kind: "none" } | { kind: "email"; email: string } | { kind: "team"; slug: string };

export type DateValue =
  /** `-24h`: within the last 24 hours; `+24h`: longer ago than 24 hours (like Unix `find -mtime`). */
  | { kind: "relative"; sign: "+" | "-"; amount: number; unit: RelativeUnit }
  /** An ISO 8601 date (`precision: "day"`) or date-time, compared with `op`; `=` means "on that day" or "within minutes of that time". */
  | { kind: "absolute"; op: CompareOp; ms: number; precision: "day" | "time" };

export type RelativeUnit = "m" | "h" | "d" | "w";

export const RELATIVE_UNIT_MS: Record<RelativeUnit, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Named bounds: a query is short and has few terms, so that its SQL stays small. */
export const ISSUE_QUERY_LIMITS = {
  maxLength: 2000,
  maxTerms: 50,
};
export type IssueQueryLimits = typeof ISSUE_QUERY_LIMITS;

export interface QueryError {
  message: string;
  /** 0-based offset into the query text (UTF-16 code units), where the problem starts. */
  position: number;
}

export type ParseResult = { ok: true; query: IssueQuery } | { ok: false; error: QueryError };
