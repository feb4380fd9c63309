/**
 * Globs for the error-message and release filters: `*` matches any run of characters
 * (none included), `?` exactly one character (code point), everything else itself; a
 * pattern must match the whole text, as Sentry's inbound-filter globs do
 * (docs.sentry.io, "Inbound Filters").
 *
 * Not built on RegExp: `*a*a*a*b` as a backtracking regex takes exponential time on a
 * long run of `a`. Here the pattern is cut at its stars into fixed-length segments;
 * the first must sit at the start, the last at the end, and each middle one is taken at
 * its leftmost place after the previous one. Leftmost is always safe because a star
 * can absorb whatever lies between, so the matcher never returns to an earlier segment:
 * the work is at most text length × longest segment.
 */

export interface GlobOptions {
  caseInsensitive?: boolean;
}

/** A code point, or `ANY` for `?`. */
type Segment = readonly number[];
const ANY = -1;

export type GlobMatcher = (text: string) => boolean;

function codePoints(value: string): number[] {
  const out: number[] = [];
  for (const ch of value) out.push(ch.codePointAt(0) ?? 0);
  return out;
}

function segmentOf(part: string): Segment {
  return codePoints(part).map((c) => (c === 0x3f /* ? */ ? ANY : c));
}

function matchesAt(text: readonly number[], at: number, segment: Segment): boolean {
  if (at < 0 || at + segment.length > text.length) return false;
  for (let i = 0; i < segment.length; i++) {
    const want = segment[i];
    if (want !== ANY && want !== text[at + i]) return false;
  }
  return true;
}

/** The leftmost index in [from, limit - segment.length] where the segment matches, or -1. */
function find(text: readonly number[], segment: Segment, from: number, limit: number): number {
  for (let at = from; at + segment.length <= limit; at++) {
    if (matchesAt(text, at, segment)) return at;
  }
  return -1;
}

type CodePointMatcher = (text: readonly number[]) => boolean;

function compile(pattern: string): CodePointMatcher {
  const parts = pattern.split("*");
  const head = segmentOf(parts[0] ?? "");
  if (parts.length === 1) return (text) => text.length === head.length && matchesAt(text, 0, head);
  const tail = segmentOf(parts[parts.length - 1] ?? "");
  const middles = parts
    .slice(1, -1)
    .filter((p) => p.length > 0)
    .map(segmentOf);
  return (text) => {
    const end = text.length - tail.length;
    if (end < head.length || !matchesAt(text, 0, head) || !matchesAt(text, end, tail)) return false;
    let at = head.length;
    for (const segment of middles) {
      const found = find(text, segment, at, end);
      if (found < 0) return false;
      at = found + segment.length;
    }
    return true;
  };
}

function folder(options: GlobOptions): (value: string) => string {
  return options.caseInsensitive ? (value) => value.toLowerCase() : (value) => value;
}

/** Compiles a glob once, for matching many texts. */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const fold = folder(options);
  const matcher = compile(fold(pattern));
  return (value) => matcher(codePoints(fold(value)));
}

/** Whether `text` matches `pattern` as a whole. */
export function globMatch(pattern: string, text: string, options: GlobOptions = {}): boolean {
  return compileGlob(pattern, options)(text);
}

/** Whether any text matches any pattern; empty patterns are ignored. */
export function matchesAnyGlob(patterns: readonly string[], texts: readonly string[], options: GlobOptions = {}): boolean {
  const active = patterns.filter((p) => p.length > 0);
  if (active.length === 0 || texts.length === 0) return false;
  const fold = folder(options);
  const folded = texts.map((t) => codePoints(fold(t)));
  return active.some((pattern) => {
    const matcher = compile(fold(pattern));
    return folded.some(matcher);
  });
}
