/**
 * File names and modules as grouping sees them. Sentry's docs: frames group by "normalized
 * filename (with revision hashes, and so forth, removed)", and for JavaScript by "the base name
 * of the path only converted to lowercase" (develop docs, Grouping). So `webpack:///./src/App.js`,
 * `/srv/build-17/src/app.js` and `https://cdn.example.com/app.js?v=3` all become `app.js`, and
 * `app.3f2a1b9c.js` / `app.77aa0b1c.js` both become `app.<hash>.js`.
 */
import { isAlpha, isDigit, isHexDigit } from "./tokens";

/** Names that mean "no real file": the frame is left out of grouping. */
const NO_FILE = new Set(["<anonymous>", "[native code]", "native", "native code", "eval code", "<unknown>", "[eval]", "<eval>"]);

export function isPlaceholderFile(path: string | undefined): boolean {
  return path !== undefined && NO_FILE.has(path.trim().toLowerCase());
}

/** The path without query string and fragment, with `/` separators. */
export function stripQuery(path: string): string {
  let end = path.length;
  for (const stop of ["?", "#"]) {
    const at = path.indexOf(stop);
    if (at !== -1 && at < end) end = at;
  }
  return path.slice(0, end).replaceAll("\\", "/");
}

/** The last path segment, whatever prefix (`webpack://`, `file://`, `app:///`, a URL) came before. */
export function basename(path: string): string {
  const clean = stripQuery(path);
  const slash = clean.lastIndexOf("/");
  return slash === -1 ? clean : clean.slice(slash + 1);
}

const SEPARATORS = new Set([".", "-", "_", "~", "@", "+"]);

/** A build hash: 6+ hex digits with a digit in them, or an 8+ character base-62 mix. */
function isHashToken(token: string): boolean {
  if (token.length < 6) return false;
  let digits = 0;
  let hex = true;
  let upper = 0;
  let lower = 0;
  let lowerRun = 0;
  let longestLowerRun = 0;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (isDigit(c)) digits++;
    else if (!isAlpha(c)) return false;
    if (!isHexDigit(c)) hex = false;
    if (c >= 0x41 && c <= 0x5a) upper++;
    if (c >= 0x61 && c <= 0x7a) {
      lower++;
      lowerRun++;
      longestLowerRun = Math.max(longestLowerRun, lowerRun);
    } else lowerRun = 0;
  }
  if (digits === 0) return false;
  if (hex) return true;
  // Vite/Rollup style (`index-BfGz3k2A`): mixed case and digits, no run of lowercase that
  // reads like a word (`base64Encoder` stays).
  return token.length >= 8 && upper > 0 && lower > 0 && longestLowerRun <= 4;
}

function isVersionStart(tokens: readonly string[], i: number): boolean {
  const t = tokens[i] ?? "";
  const from = t.startsWith("v") || t.startsWith("V") ? 1 : 0;
  if (from === t.length) return false;
  for (let k = from; k < t.length; k++) if (!isDigit(t.charCodeAt(k))) return false;
  return true;
}

/**
 * Replaces build hashes with `<hash>` and dotted versions (`3.6.0`, `v1.2`) with `<version>`
 * in a file or module name. Tokens are the runs between separators (`.`, `-`, `_`, `~`, `@`, `+`).
 */
export function replaceBuildTokens(name: string): string {
  // tokens at even indexes, separators at odd ones
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < name.length; i++) {
    if (SEPARATORS.has(name[i]!)) {
      parts.push(name.slice(start, i), name[i]!);
      start = i + 1;
    }
  }
  parts.push(name.slice(start));

  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (isVersionStart(parts, i)) {
      let j = i;
      while (parts[j + 1] === "." && isVersionStart(parts, j + 2) && !(parts[j + 2] ?? "").startsWith("v")) j += 2;
      if (j > i) {
        out.push("<version>");
        if (j + 1 < parts.length) out.push(parts[j + 1]!);
        i = j;
        continue;
      }
    }
    const token = parts[i]!;
    out.push(isHashToken(token) ? "<hash>" : token);
    if (i + 1 < parts.length) out.push(parts[i + 1]!);
  }
  return out.join("");
}

/** A frame's file name for grouping: base name, lowercased, build tokens replaced. */
export function groupingFilename(path: string): string {
  return replaceBuildTokens(basename(path)).toLowerCase();
}

/** A frame's module for grouping: build tokens replaced, case kept. */
export function groupingModule(module: string): string {
  return replaceBuildTokens(module.trim());
}
