/**
 * Issue stream orders (Sentry's `sort=` values) and keyset pagination over them.
 *
 * Every order is descending on one column with the issue id as tiebreak, so that the order
 * is total and a page boundary is one `(value, id)` pair: the next page is everything
 * strictly after it. Rows added or changed between requests cannot make a page repeat an
 * issue already shown or skip one that did not move.
 */

import type { Keyset } from "../pagination";

export const ISSUE_SORTS = {
  date: "last_seen",
  new: "first_seen",
  freq: "times_seen",
  user: "user_count",
} as const;
export type IssueSort = keyof typeof ISSUE_SORTS;
export type IssueSortColumn = (typeof ISSUE_SORTS)[IssueSort];

/** The issue stream's default, as in Sentry: most recently seen first. */
export const DEFAULT_ISSUE_SORT: IssueSort = "date";

export function isIssueSort(value: string): value is IssueSort {
  return Object.hasOwn(ISSUE_SORTS, value);
}

export type SortParse = { ok: true; sort: IssueSort } | { ok: false; message: string };

/** `sort=` from a request; absent or empty means the default. */
export function parseIssueSort(value: string | null | undefined): SortParse {
  if (value === null || value === undefined || value === "") return { ok: true, sort: DEFAULT_ISSUE_SORT };
  if (isIssueSort(value)) return { ok: true, sort: value };
  return { ok: false, message: `Unknown sort "${value.slice(0, 50)}" — use ${Object.keys(ISSUE_SORTS).join(", ")}` };
}

/** A page boundary: a row's sort value and id, and whether the page lies before it (src/core/pagination.ts). */
export interface IssueCursor extends Keyset {
  sort: IssueSort;
}

const CURSOR_PREFIX = "i1";
const MAX_CURSOR_LENGTH = 200;

/**
 * Opaque to clients (base64url of `i1:sort:value:id`, with `:p` for a previous page); the
 * version prefix lets the format change without old links turning into wrong pages.
 */
export function encodeIssueCursor(cursor: IssueCursor): string {
  const text = `${CURSOR_PREFIX}:${cursor.sort}:${cursor.value}:${cursor.id}${cursor.back ? ":p" : ""}`;
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The cursor after `row` for `sort`. */
export function cursorAfter(sort: IssueSort, row: { id: number } & Record<IssueSortColumn, number>): string {
  return encodeIssueCursor({ sort, value: row[ISSUE_SORTS[sort]], id: row.id, back: false });
}

export type CursorParse = { ok: true; cursor: IssueCursor } | { ok: false; message: string };

const RESTART = "drop the cursor parameter to start from the first page";

export function decodeIssueCursor(text: string, sort: IssueSort): CursorParse {
  const invalid: CursorParse = { ok: false, message: `Invalid cursor — ${RESTART}` };
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return invalid;
  const m = /^i1:([a-z]+):(\d{1,16}):(\d{1,16})(:p)?$/.exec(Buffer.from(text, "base64url").toString("utf8"));
  if (!m || !isIssueSort(m[1]!)) return invalid;
  const [value, id] = [Number(m[2]), Number(m[3])];
  if (!Number.isSafeInteger(value) || !Number.isSafeInteger(id)) return invalid;
  if (m[1] !== sort) return { ok: false, message: `This cursor is for sort=${m[1]}, not sort=${sort} — ${RESTART}` };
  return { ok: true, cursor: { sort, value, id, back: m[4] !== undefined } };
}
