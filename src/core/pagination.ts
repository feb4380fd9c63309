/**
 * Keyset pages in both directions, for every paged list (issues, an issue's events).
 *
 * Lists are ordered by one number descending with the row id as tiebreak, so a page boundary
 * is one `(value, id)` pair. A forward cursor means "the rows after this pair", a backward one
 * "the rows before it"; the store reads a backward page in ascending order and this module
 * turns it round. Reading `limit + 1` rows tells whether a page lies beyond.
 */

/** A page boundary: the sort value and id of a row, and which side of it the page lies on. */
export interface Keyset {
  value: number;
  id: number;
  /** True: the rows before this pair (the previous page); false: the rows after it. */
  back: boolean;
}

export interface KeysetPage<T> {
  rows: T[];
  /** The cursor of the page before (null on the first page). */
  previousCursor: string | null;
  /** The cursor of the page after (null on the last page). */
  nextCursor: string | null;
}

/**
 * The page shown from `fetched` — up to `limit + 1` rows in the order the store read them
 * (descending for a forward cursor or none, ascending for a backward one) — with the cursors
 * on either side, encoded by `encode`.
 */
export function keysetPage<T>(
  fetched: readonly T[],
  limit: number,
  cursor: Keyset | null,
  keyOf: (row: T) => { value: number; id: number },
  encode: (keyset: Keyset) => string,
): KeysetPage<T> {
  const more = fetched.length > limit;
  const rows = fetched.slice(0, limit);
  const back = cursor?.back === true;
  if (back) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const before = first ? encode({ ...keyOf(first), back: true }) : null;
  const after = last ? encode({ ...keyOf(last), back: false }) : null;
  // Going forward, a page lies before whenever a cursor brought us here; going back, one lies
  // after, and one lies before only when more rows were read than shown.
  return back
    ? { rows, previousCursor: more ? before : null, nextCursor: after }
    : { rows, previousCursor: cursor ? before : null, nextCursor: more ? after : null };
}

const MAX_CURSOR_LENGTH = 200;

/**
 * A list's cursor, opaque to clients: base64url of `prefix:value:id`, with `:p` for a previous
 * page. The prefix names the list and its version, so one list's cursor is never read as another's.
 */
export function encodeKeyset(prefix: string, keyset: Keyset): string {
  return Buffer.from(`${prefix}:${keyset.value}:${keyset.id}${keyset.back ? ":p" : ""}`, "utf8").toString("base64url");
}

/** The keyset in a cursor made by encodeKeyset with `prefix`; null for anything else. */
export function decodeKeyset(prefix: string, text: string): Keyset | null {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  // Values may be fractional (event timestamps are seconds with milliseconds); ids are integers.
  const m = /^([a-z0-9]+):(\d{1,16}(?:\.\d{1,17})?):(\d{1,16})(:p)?$/.exec(Buffer.from(text, "base64url").toString("utf8"));
  if (!m || m[1] !== prefix) return null;
  const [value, id] = [Number(m[2]), Number(m[3])];
  if (!Number.isFinite(value) || !Number.isSafeInteger(id)) return null;
  return { value, id, back: m[4] !== undefined };
}

/**
 * A page of a list with no row id to key on (an issue's tag values), read from an offset, as
 * Sentry pages these lists. The offset travels as a keyset's value (id 0), so the cursor is
 * as opaque and as strictly parsed as every other.
 */
export function offsetPage<T>(fetched: readonly T[], limit: number, offset: number, prefix: string): KeysetPage<T> {
  const at = (value: number) => encodeKeyset(prefix, { value, id: 0, back: false });
  return {
    rows: fetched.slice(0, limit),
    previousCursor: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    nextCursor: fetched.length > limit ? at(offset + limit) : null,
  };
}

/** The offset in a cursor made by offsetPage with `prefix`; null for anything else. */
export function decodeOffset(prefix: string, text: string): number | null {
  const keyset = decodeKeyset(prefix, text);
  return keyset && keyset.id === 0 && !keyset.back && Number.isSafeInteger(keyset.value) ? keyset.value : null;
}
