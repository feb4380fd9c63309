/**
 * Search values are globs, as in Sentry's search (`release:1.2.*`, `browser:"Safari 11*"`):
 * `*` matches any run of characters, `\*` is a literal asterisk and `\\` a literal backslash.
 * Every other character, including `?`, `%` and `_`, stands for itself.
 */

type Piece = { star: true } | { star: false; char: string };

function* pieces(glob: string): Generator<Piece> {
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const next = glob[i + 1];
    if (c === "\\" && (next === "*" || next === "\\")) {
      yield { star: false, char: next };
      i++;
    } else if (c === "*") yield { star: true };
    else yield { star: false, char: c };
  }
}

export function hasWildcard(glob: string): boolean {
  for (const p of pieces(glob)) if (p.star) return true;
  return false;
}

/** The text a glob without wildcards stands for. */
export function globLiteral(glob: string): string {
  let out = "";
  for (const p of pieces(glob)) out += p.star ? "*" : p.char;
  return out;
}

/** The glob that matches exactly `text`. */
export function literalGlob(text: string): string {
  return text.replace(/[\\*]/g, (c) => `\\${c}`);
}

/**
 * A LIKE pattern for `… LIKE ? ESCAPE '\'`: `*` becomes `%`, and the characters LIKE treats
 * specially (`%`, `_` and the escape character itself) are escaped, so that they match
 * themselves on SQLite and PostgreSQL alike.
 */
export function globToLike(glob: string): string {
  let out = "";
  for (const p of pieces(glob)) {
    if (p.star) out += "%";
    else out += p.char === "%" || p.char === "_" || p.char === "\\" ? `\\${p.char}` : p.char;
  }
  return out;
}
