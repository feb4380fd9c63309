/**
 * Globs for fingerprint rules (docs.sentry.io "Fingerprint Rules", Matchers): `*` any run, `?`
 * one character, `[abc]`/`[a-z]`/`[!a]` classes, `\x` a literal x. In path mode (`stack.abs_path`,
 * `stack.package`) `*` and `?` stop at `/` and `**` crosses it, and `\` in the text counts as `/`.
 *
 * Matching simulates the pattern as a set of positions (a Thompson NFA) over the text once, so
 * it takes at most text length × pattern length steps: `*a*a*a*a*b` against a long run of `a`
 * stays fast, unlike a backtracking RegExp.
 */

type Token =
  | { kind: "char"; code: number }
  | { kind: "any" }
  | { kind: "star"; crossesSlash: boolean }
  | { kind: "class"; negated: boolean; ranges: number[] };

export interface GlobOptions {
  /** Path semantics: `*` does not cross `/`, `**` does. */
  path?: boolean;
  caseInsensitive?: boolean;
}

/** Steps a caller lets matching take (text characters × live pattern positions), shared across calls. */
export interface MatchBudget {
  left: number;
}

/** Whether the whole text matches; false, too, once the budget runs out (the budget then is below 0). */
export type GlobMatcher = (text: string, budget?: MatchBudget) => boolean;

export type GlobCompileResult = { ok: true; match: GlobMatcher } | { ok: false; offset: number; message: string };

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) out.push(ch.codePointAt(0)!);
  return out;
}

/** Parses `[…]` starting at `open`; returns the token and the index after `]`, or null if unclosed. */
function parseClass(cps: readonly number[], open: number): { token: Token; next: number } | null {
  let i = open + 1;
  const negated = cps[i] === 0x21 /* ! */ || cps[i] === 0x5e; /* ^ */
  if (negated) i++;
  const ranges: number[] = [];
  let first = true;
  while (i < cps.length && (cps[i] !== 0x5d /* ] */ || first)) {
    first = false;
    let lo = cps[i]!;
    if (lo === BACKSLASH && i + 1 < cps.length) lo = cps[++i]!;
    i++;
    let hi = lo;
    if (cps[i] === 0x2d /* - */ && i + 1 < cps.length && cps[i + 1] !== 0x5d) {
      hi = cps[++i]!;
      if (hi === BACKSLASH && i + 1 < cps.length) hi = cps[++i]!;
      i++;
    }
    ranges.push(Math.min(lo, hi), Math.max(lo, hi));
  }
  if (i >= cps.length) return null;
  return { token: { kind: "class", negated, ranges }, next: i + 1 };
}

function tokenize(pattern: string, path: boolean): Token[] | { offset: number; message: string } {
  const cps = codePoints(pattern);
  const tokens: Token[] = [];
  let i = 0;
  while (i < cps.length) {
    const c = cps[i]!;
    if (c === 0x2a /* * */) {
      let run = 0;
      while (cps[i] === 0x2a) {
        run++;
        i++;
      }
      const crossesSlash = !path || run >= 2;
      const prev = tokens[tokens.length - 1];
      if (prev?.kind === "star") prev.crossesSlash ||= crossesSlash;
      else tokens.push({ kind: "star", crossesSlash });
      continue;
    }
    if (c === 0x3f /* ? */) tokens.push({ kind: "any" });
    else if (c === BACKSLASH) {
      tokens.push({ kind: "char", code: i + 1 < cps.length ? cps[++i]! : BACKSLASH });
    } else if (c === 0x5b /* [ */) {
      const parsed = parseClass(cps, i);
      if (!parsed) return { offset: i, message: "unclosed '[' (write \\[ for a literal bracket)" };
      tokens.push(parsed.token);
      i = parsed.next;
      continue;
    } else tokens.push({ kind: "char", code: c });
    i++;
  }
  return tokens;
}

function inClass(token: Extract<Token, { kind: "class" }>, c: number): boolean {
  let hit = false;
  for (let r = 0; r < token.ranges.length && !hit; r += 2) hit = c >= token.ranges[r]! && c <= token.ranges[r + 1]!;
  return hit !== token.negated;
}

function simulate(tokens: readonly Token[], text: string, path: boolean, budget: MatchBudget | undefined): boolean {
  const n = tokens.length;
  let current: number[] = [];
  let next: number[] = [];
  const seen = new Int32Array(n + 1).fill(-1);
  let generation = 0;
  const add = (list: number[], state: number): void => {
    // a star may match nothing: entering it also enters the state after it
    while (state <= n && seen[state] !== generation) {
      seen[state] = generation;
      list.push(state);
      if (state === n || tokens[state]!.kind !== "star") return;
      state++;
    }
  };
  add(current, 0);
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (budget && (budget.left -= current.length) < 0) return false;
    generation++;
    next.length = 0;
    for (const state of current) {
      if (state === n) continue;
      const token = tokens[state]!;
      const slashBlocked = path && c === SLASH;
      if (token.kind === "star") {
        if (token.crossesSlash || !slashBlocked) add(next, state);
      } else if (token.kind === "char") {
        if (token.code === c) add(next, state + 1);
      } else if (token.kind === "any") {
        if (!slashBlocked) add(next, state + 1);
      } else if (!slashBlocked && inClass(token, c)) add(next, state + 1);
    }
    if (next.length === 0) return false;
    [current, next] = [next, current];
  }
  return current.includes(n);
}

/**
 * Literal runs the text must contain, start with and end with: cheap native checks that settle
 * most non-matches before the simulation (`*Timeout*` on a text without "Timeout").
 */
function literalRuns(tokens: readonly Token[]): { runs: string[]; head: string; tail: string } {
  const runs: string[] = [];
  let run = "";
  for (const token of tokens) {
    if (token.kind === "char") run += String.fromCodePoint(token.code);
    else {
      if (run !== "") runs.push(run);
      run = "";
    }
  }
  if (run !== "") runs.push(run);
  const head = tokens[0]?.kind === "char" ? (runs[0] ?? "") : "";
  const tail = tokens[tokens.length - 1]?.kind === "char" ? (runs[runs.length - 1] ?? "") : "";
  return { runs, head, tail };
}

export function compileGlob(pattern: string, options: GlobOptions = {}): GlobCompileResult {
  const fold = options.caseInsensitive ? (s: string) => s.toLowerCase() : (s: string) => s;
  const path = options.path === true;
  const tokens = tokenize(fold(pattern), path);
  if (!Array.isArray(tokens)) return { ok: false, ...tokens };
  const { runs, head, tail } = literalRuns(tokens);
  const match: GlobMatcher = (raw, budget) => {
    let text = fold(raw);
    if (path && text.includes("\\")) text = text.replaceAll("\\", "/");
    if (!text.startsWith(head) || !text.endsWith(tail) || !runs.every((r) => text.includes(r))) return false;
    return simulate(tokens, text, path, budget);
  };
  return { ok: true, match };
}
