/**
 * Turns a parse failure into what the search box shows: the parser's message, plus the
 * term it stopped in and a caret under it, so the reader sees *where* without counting
 * characters. The parser's positions are offsets into the query text (parse.ts).
 */
export interface QueryErrorExplanation {
  message: string;
  position: number;
  /** The whitespace-delimited term holding the position ("" when it lies past the end). */
  token: string;
  /** The query cut around the position, for a before / at / after rendering. */
  before: string;
  at: string;
  after: string;
}

export function explainQueryError(text: string, error: { message: string; position: number }): QueryErrorExplanation {
  const position = Math.max(0, Math.min(error.position, text.length));
  let start = position;
  while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
  let end = position;
  while (end < text.length && !/\s/.test(text[end]!)) end++;
  const token = text.slice(start, end);
  // The character the parser points at; past the end, an empty mark shows "here, at the end".
  const at = text.slice(position, position + 1);
  return {
    // Many parser messages already quote the whole term; naming it twice reads as a stutter.
    message: token && !error.message.includes(token) ? `In “${token}”: ${error.message}` : error.message,
    position,
    token,
    before: text.slice(0, position),
    at,
    after: text.slice(position + at.length),
  };
}
