/**
 * What an identifier from a request (a path segment, a query value, a DSN key, a form field)
 * must be before it is looked up. SQLite compares anything and finds nothing; PostgreSQL
 * refuses a NUL in text and a number past its `integer` columns with an error, which a
 * transport would turn into a 500. Every transport asks these once, at its boundary
 * (src/server/api/router.ts, src/core/auth/ingest-auth.ts, app/lib/action.ts), so an
 * identifier that cannot name a row is "not found" on both databases alike.
 */

/** The largest id a PostgreSQL `integer` column holds; every row id column is one. */
export const MAX_ROW_ID = 2_147_483_647;

/** Longer than any slug, version, event or trace id stored; past it nothing can match. */
export const MAX_IDENTIFIER_CHARS = 400;

/** A NUL, or a UTF-16 surrogate without its pair (not encodable as UTF-8). */
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether both databases can compare (and store) this text: no NUL, valid Unicode. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Whether a request's identifier can name a stored row: storable text of a bounded length. */
export function isPossibleIdentifier(text: string): boolean {
  return text.length <= MAX_IDENTIFIER_CHARS && isStorableText(text);
}

/** A numeric row id from a request (`"42"`), or null when no row can have it. */
export function rowIdOf(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_ROW_ID ? id : null;
}

/**
 * A path segment as the client meant it, or null when it is not percent-encoded UTF-8
 * (`%FF`, a lone `%`) or cannot name a row: such a segment is answered as not found.
 */
export function decodeIdentifier(segment: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return isPossibleIdentifier(text) ? text : null;
}
