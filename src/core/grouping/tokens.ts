/**
 * Recognizers for the variable parts of messages (Sentry's parameterization list, docs/protocol.md#grouping:
 * url, email, hostname, ip, traceparent, uuid, sha1, md5, date, duration, hex, float, int).
 * Each takes one whole token and answers in one pass over it: no regular expressions, so no
 * backtracking on hostile input.
 */

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHexDigit(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

export function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

export function isAlnum(c: number): boolean {
  return isDigit(c) || isAlpha(c);
}

/** A `\w` character: letter, digit or underscore. */
export function isWord(c: number): boolean {
  return isAlnum(c) || c === 0x5f;
}

function every(s: string, from: number, to: number, test: (c: number) => boolean): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) if (!test(s.charCodeAt(i))) return false;
  return true;
}

/** Digits from `at`; returns the index after them (equal to `at` when there are none). */
function digitsFrom(s: string, at: number): number {
  while (at < s.length && isDigit(s.charCodeAt(at))) at++;
  return at;
}

export function isInt(s: string): boolean {
  const start = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
  return every(s, start, s.length, isDigit);
}

export function isFloat(s: string): boolean {
  const start = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
  const dot = digitsFrom(s, start);
  if (dot === start || s.charCodeAt(dot) !== 0x2e) return false;
  return dot + 1 < s.length && digitsFrom(s, dot + 1) === s.length;
}

const DURATION_UNITS = new Set(["ns", "us", "µs", "ms", "s", "sec", "secs", "m", "min", "mins", "h", "hr", "hrs", "d"]);

/** `250ms`, `1.5s`, `30min`. */
export function isDuration(s: string): boolean {
  let at = digitsFrom(s, 0);
  if (at === 0) return false;
  if (s.charCodeAt(at) === 0x2e) {
    const after = digitsFrom(s, at + 1);
    if (after === at + 1) return false;
    at = after;
  }
  return DURATION_UNITS.has(s.slice(at).toLowerCase());
}

/** `0x…`, or 8+ hex digits mixing digits and letters; 32 are `md5`, 40 `sha1`. */
export function hexKind(s: string): "hex" | "md5" | "sha1" | null {
  if ((s.startsWith("0x") || s.startsWith("0X")) && every(s, 2, s.length, isHexDigit)) return "hex";
  if (s.length < 8 || !every(s, 0, s.length, isHexDigit)) return null;
  let digits = 0;
  for (let i = 0; i < s.length; i++) if (isDigit(s.charCodeAt(i))) digits++;
  if (digits === 0 || digits === s.length) return null;
  return s.length === 40 ? "sha1" : s.length === 32 ? "md5" : "hex";
}

/** Hex groups of the given lengths separated by `-`, e.g. a UUID's 8-4-4-4-12. */
function hexGroups(s: string, at: number, lengths: readonly number[]): boolean {
  for (let g = 0; g < lengths.length; g++) {
    const end = at + lengths[g]!;
    if (!every(s, at, end, isHexDigit)) return false;
    if (g < lengths.length - 1 && s.charCodeAt(end) !== 0x2d) return false;
    at = end + 1;
  }
  return true;
}

export function isUuidAt(s: string, at: number): boolean {
  return at + 36 <= s.length && hexGroups(s, at, [8, 4, 4, 4, 12]);
}

export function isUuid(s: string): boolean {
  return s.length === 36 && isUuidAt(s, 0);
}

/** W3C `traceparent`: `00-<32 hex>-<16 hex>-<2 hex>`. */
export function isTraceparent(s: string): boolean {
  return s.length === 55 && hexGroups(s, 0, [2, 32, 16, 2]);
}

function isIpv4(s: string): boolean {
  const colon = s.indexOf(":");
  const host = colon === -1 ? s : s.slice(0, colon);
  if (colon !== -1 && !every(s, colon + 1, s.length, isDigit)) return false;
  const parts = host.split(".");
  return parts.length === 4 && parts.every((p) => p.length >= 1 && p.length <= 3 && every(p, 0, p.length, isDigit) && Number(p) <= 255);
}

/** IPv6: hex groups and colons, either compressed (`::`) or all eight groups. */
function isIpv6(s: string): boolean {
  let hex = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isHexDigit(c)) hex++;
    else if (c !== 0x3a && c !== 0x2e) return false;
  }
  if (hex === 0) return false;
  const groups = s.split(":");
  if (groups.some((g) => g.length > 4 && !isIpv4(g))) return false;
  return s.includes("::") || groups.length === 8;
}

export function isIp(s: string): boolean {
  return isIpv4(s) || isIpv6(s);
}

/** `HH:MM[:SS[.frac]]` then an optional `Z` or `±HH[:]MM`, from `at` to the end. */
function isTimeFrom(s: string, at: number): boolean {
  const h = digitsFrom(s, at);
  if (h - at < 1 || h - at > 2 || s.charCodeAt(h) !== 0x3a) return false;
  const m = digitsFrom(s, h + 1);
  if (m - h - 1 !== 2) return false;
  at = m;
  if (s.charCodeAt(at) === 0x3a) {
    const sec = digitsFrom(s, at + 1);
    if (sec - at - 1 !== 2) return false;
    at = sec;
    if (s.charCodeAt(at) === 0x2e || s.charCodeAt(at) === 0x2c) {
      const frac = digitsFrom(s, at + 1);
      if (frac === at + 1) return false;
      at = frac;
    }
  }
  if (at === s.length) return true;
  const zone = s[at];
  if (zone === "Z" || zone === "z") return at + 1 === s.length;
  if (zone !== "+" && zone !== "-") return false;
  const rest = s.slice(at + 1).replace(":", "");
  return rest.length === 4 && every(rest, 0, 4, isDigit);
}

/** ISO 8601 dates and times: `2024-03-01`, `2024-03-01T10:00:00.123Z`, `10:00:00`. */
export function isDateOrTime(s: string): boolean {
  if (isTimeFrom(s, 0)) return true;
  if (s.length < 10 || !every(s, 0, 4, isDigit) || !every(s, 5, 7, isDigit) || !every(s, 8, 10, isDigit)) return false;
  const sep = s[4];
  if ((sep !== "-" && sep !== "/") || s[7] !== sep) return false;
  if (s.length === 10) return true;
  const t = s[10];
  return (t === "T" || t === "t" || t === "_") && isTimeFrom(s, 11);
}

export function isUrl(s: string): boolean {
  const sep = s.indexOf("://");
  if (sep < 1 || sep > 16 || sep + 3 >= s.length || !isAlpha(s.charCodeAt(0))) return false;
  return every(s, 0, sep, (c) => isAlnum(c) || c === 0x2b || c === 0x2d || c === 0x2e);
}

// Top-level domains that are not also common file extensions (`.py`, `.md`, `.js` are left out).
const TLDS = new Set([
  "com",
  "net",
  "org",
  "io",
  "dev",
  "app",
  "co",
  "edu",
  "gov",
  "mil",
  "info",
  "biz",
  "cloud",
  "ai",
  "internal",
  "local",
  "localdomain",
  "lan",
  "corp",
  "example",
  "test",
  "de",
  "uk",
  "fr",
  "nl",
  "eu",
  "us",
  "ca",
  "au",
  "jp",
  "ch",
  "se",
  "es",
  "it",
]);

function isLabel(label: string): boolean {
  return (
    label.length >= 1 &&
    label.length <= 63 &&
    every(label, 0, label.length, (c) => isAlnum(c) || c === 0x2d) &&
    !label.startsWith("-") &&
    !label.endsWith("-")
  );
}

export function isHostname(s: string): boolean {
  const labels = s.split(".");
  if (labels.length < 2 || !labels.every(isLabel)) return false;
  return TLDS.has(labels[labels.length - 1]!.toLowerCase());
}

export function isEmail(s: string): boolean {
  const at = s.indexOf("@");
  if (at < 1 || at !== s.lastIndexOf("@")) return false;
  const localOk = every(s, 0, at, (c) => isAlnum(c) || c === 0x2e || c === 0x5f || c === 0x25 || c === 0x2b || c === 0x2d);
  const labels = s.slice(at + 1).split(".");
  const tld = labels[labels.length - 1] ?? "";
  return localOk && labels.length >= 2 && labels.every(isLabel) && tld.length >= 2 && every(tld, 0, tld.length, isAlpha);
}
