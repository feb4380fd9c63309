/** Small readers for attacker-controlled JSON: each returns undefined for the wrong shape. */
export const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/**
 * Deepest nesting of arrays and objects a JSON item may have. V8's JSON.parse copes with far
 * deeper input, but every recursive walk after it (JSON.stringify, normalization, span
 * attributes) overflows the stack at ~10,000 levels. 128 is serde_json's default recursion
 * limit (https://docs.rs/serde_json/latest/serde_json/struct.Deserializer.html#method.disable_recursion_limit),
 * far above what any SDK sends.
 */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `max`, found in one pass over its bytes with no
 * recursion and no parsing, so it is safe to run before anything walks the value. Brackets
 * inside strings do not count; bytes of multi-byte UTF-8 characters are all >= 0x80 and so
 * never look like a quote or a bracket. Malformed text is judged only by its brackets: the
 * parse that follows rejects it. Most of a payload is strings (keys and values): each is
 * skipped with a native search for its closing quote rather than byte by byte.
 */
export function nestsDeeperThan(payload: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < payload.length; i++) {
    const b = payload[i];
    if (b === QUOTE) {
      i = closingQuote(payload, i + 1);
      if (i < 0) return false;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

/** The index of the quote that ends the string whose text starts at `from`, or -1 if none does. */
function closingQuote(payload: Uint8Array, from: number): number {
  for (let at = from; ;) {
    const quote = payload.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    // Escaped when an odd number of backslashes stands right before it.
    let slashes = 0;
    while (quote - slashes - 1 >= from && payload[quote - slashes - 1] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

export function readJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
}
