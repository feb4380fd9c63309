/**
 * Finds secrets inside free text and replaces just the secret with "[Filtered]": credit-card
 * numbers (Luhn-checked), PEM private-key bodies, bearer tokens, passwords in URLs and values
 * of sensitive `key=value` pairs. These follow the rules of Relay's default PII config
 * (docs/protocol.md#data-scrubbing: @creditcard, @pemkey, @bearer, @urlauth, @password) but are hand-written
 * scanners, so each runs in one linear pass with no backtracking on any input.
 */
import { FILTERED } from "./limits";

export interface Counter {
  count: number;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordChar(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/** The Luhn checksum that every payment card number satisfies. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 0x30;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes of the major networks: Visa, Mastercard (51–55, 2221–2720), Amex, Diners, JCB, Discover, UnionPay. */
function cardPrefix(digits: string): boolean {
  const first = digits[0];
  if (first === "4") return true;
  const two = Number(digits.slice(0, 2));
  if (first === "5") return two >= 51 && two <= 55;
  if (first === "2") {
    const four = Number(digits.slice(0, 4));
    return four >= 2221 && four <= 2720;
  }
  if (first === "3") return two === 30 || two === 34 || two === 35 || two === 36 || two === 37 || two === 38 || two === 39;
  if (first === "6") return two === 60 || two === 62 || two === 64 || two === 65;
  return false;
}

/**
 * Groups as printed on cards: all fours (the last may be shorter), or Amex/Diners 4-6-5 / 4-6-4.
 * Told the groups' count, the first three lengths, whether every group but the last has four
 * digits, and the last one's length (the scan keeps no list of groups).
 */
function cardGroups(count: number, first: readonly [number, number, number], foursBeforeLast: boolean, last: number): boolean {
  if (count === 1) return true;
  if (count === 3 && first[0] === 4 && first[1] === 6 && (first[2] === 5 || first[2] === 4)) return true;
  return foursBeforeLast && last >= 1 && last <= 4;
}

/** The digits of `text[from, to)`, separators left out. */
function digitsOf(text: string, from: number, to: number): string {
  let digits = "";
  for (let k = from; k < to; k++) if (isDigit(text.charCodeAt(k))) digits += text[k];
  return digits;
}

/**
 * Replaces card numbers: 13–19 digits, optionally grouped by single spaces or dashes, with a
 * card-network prefix and a valid Luhn checksum, standing alone (not inside a longer word).
 * Order ids and other digit runs fail the checksum or the prefix and are kept. Digit runs that
 * cannot be a card cost no allocation.
 */
export function scrubCardNumbers(text: string, counter: Counter): string {
  let out: string[] | undefined;
  let last = 0;
  let i = 0;
  const n = text.length;
  const first: [number, number, number] = [0, 0, 0];
  while (i < n) {
    if (!isDigit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let digitCount = 0;
    let groupCount = 0;
    let group = 0;
    let foursBeforeLast = true;
    let separator = -1;
    let consistent = true;
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (isDigit(c)) {
        digitCount++;
        group++;
        j++;
      } else if ((c === 0x20 || c === 0x2d) && j + 1 < n && isDigit(text.charCodeAt(j + 1))) {
        if (separator === -1) separator = c;
        else if (separator !== c) consistent = false;
        if (groupCount < 3) first[groupCount] = group;
        if (group !== 4) foursBeforeLast = false;
        groupCount++;
        group = 0;
        j++;
      } else {
        break;
      }
    }
    if (groupCount < 3) first[groupCount] = group;
    groupCount++;
    i = j;
    if (digitCount < 13 || digitCount > 19 || !consistent || !cardGroups(groupCount, first, foursBeforeLast, group)) continue;
    const standsAlone = (start === 0 || !isWordChar(text.charCodeAt(start - 1))) && (j === n || !isWordChar(text.charCodeAt(j)));
    if (!standsAlone) continue;
    const digits = digitsOf(text, start, j);
    if (cardPrefix(digits) && luhnValid(digits)) {
      out ??= [];
      out.push(text.slice(last, start), FILTERED);
      last = j;
      counter.count++;
    }
  }
  if (!out) return text;
  out.push(text.slice(last));
  return out.join("");
}

const PEM_BEGIN = "-----BEGIN ";
const PEM_DASHES = "-----";

/** Replaces the body of every `-----BEGIN … PRIVATE KEY-----` block (to its END line, or the end of the text). */
export function scrubPrivateKeys(text: string, counter: Counter): string {
  let begin = text.indexOf(PEM_BEGIN);
  if (begin === -1) return text;
  const out: string[] = [];
  let last = 0;
  while (begin !== -1) {
    const labelStart = begin + PEM_BEGIN.length;
    const labelEnd = text.indexOf(PEM_DASHES, labelStart);
    if (labelEnd === -1) break;
    if (labelEnd - labelStart > 64 || !text.slice(labelStart, labelEnd).includes("PRIVATE KEY")) {
      begin = text.indexOf(PEM_BEGIN, labelStart);
      continue;
    }
    const bodyStart = labelEnd + PEM_DASHES.length;
    const end = text.indexOf("-----END ", bodyStart);
    const bodyEnd = end === -1 ? text.length : end;
    out.push(text.slice(last, bodyStart), FILTERED);
    last = bodyEnd;
    counter.count++;
    begin = end === -1 ? -1 : text.indexOf(PEM_BEGIN, bodyEnd);
  }
  if (last === 0) return text;
  out.push(text.slice(last));
  return out.join("");
}

// Linear: a literal, then two disjoint character classes. Tokens shorter than 8 characters
// are prose ("the bearer of bad news"), not credentials.
const BEARER = /\b(bearer\s+)(?!\[Filtered\])[A-Za-z0-9\-._~+/]{8,}=*/gi;

/** Replaces the token after `Bearer ` (Relay's `(?i)\b(Bearer\s+)([^\s]+)`). */
export function scrubBearerTokens(text: string, counter: Counter): string {
  if (text.length < 15) return text;
  return text.replace(BEARER, (_match, prefix: string) => {
    counter.count++;
    return prefix + FILTERED;
  });
}

const URL_STOP = new Set(["/", "?", "#", " ", "\t", "\n", "\r", '"', "'", "<", ">"]);

/** Replaces the password in `scheme://user:password@host` (Relay's @urlauth rule). */
export function scrubUrlPasswords(text: string, counter: Counter): string {
  let scheme = text.indexOf("://");
  if (scheme === -1 || !text.includes("@")) return text;
  const out: string[] = [];
  let last = 0;
  while (scheme !== -1) {
    const from = scheme + 3;
    const limit = Math.min(text.length, from + 256);
    let colon = -1;
    let at = -1;
    for (let j = from; j < limit; j++) {
      const ch = text[j] ?? "";
      if (ch === "@") {
        at = j;
        break;
      }
      if (URL_STOP.has(ch)) break;
      if (ch === ":" && colon === -1) colon = j;
    }
    if (at !== -1 && colon !== -1 && at > colon + 1 && text.slice(colon + 1, at) !== FILTERED) {
      out.push(text.slice(last, colon + 1), FILTERED);
      last = at;
      counter.count++;
    }
    scheme = text.indexOf("://", from);
  }
  if (last === 0) return text;
  out.push(text.slice(last));
  return out.join("");
}

function isKeyChar(code: number): boolean {
  return isWordChar(code) || code === 0x2d /* - */ || code === 0x2e /* . */ || code === 0x5b /* [ */ || code === 0x5d; /* ] */
}

const VALUE_STOP = new Set(["&", ";", ",", " ", "\t", "\n", "\r", '"', "'", "`", "#", "<", ">"]);
const QUOTES = new Set(['"', "'", "`"]);
const MAX_KEY = 64;
/** A quoted value longer than this is treated as unquoted: the scan stays bounded. */
const MAX_QUOTED = 4096;
/** Blanks allowed around the separator: `password = x`, `password: x`. */
const MAX_BLANKS = 2;
/** Format placeholders (`password=%s`, `token={}`) are templates, not secrets. */
const PLACEHOLDER = /^(?:%[sdifoOj]|\{\w*\})$/;
/** Authorization schemes: after `Authorization: Basic` the secret is the next word. */
const AUTH_SCHEMES = new Set(["basic", "bearer", "digest", "token", "negotiate", "apikey"]);

const isBlank = (ch: string | undefined): boolean => ch === " " || ch === "\t";

/**
 * A value that reads as one word of prose: lower-case, Capitalised or ALL-CAPS letters, maybe
 * hyphenated. Encoded credentials mix cases or hold digits and symbols, so they never match.
 */
const PROSE_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)(?:['-][a-z]+)*$/;

/**
 * Where the value after a separator at `sep` starts and ends, and whether it is a label's
 * prose (`auth: payment declined`: a colon, a blank, then an unquoted word) rather than a
 * secret; null when there is none to filter.
 */
function valueSpan(text: string, sep: number, afterScheme = false): [number, number, boolean] | null {
  let start = sep + 1;
  for (let k = 0; k < MAX_BLANKS && isBlank(text[start]); k++) start++;
  const first = text[start];
  if (first === undefined || first === "{" || first === "[") return null;
  const quoted = QUOTES.has(first);
  if (quoted) {
    const limit = Math.min(text.length, start + 1 + MAX_QUOTED);
    for (let j = start + 1; j < limit; j++) if (text[j] === first) return [start + 1, j, false];
    start++; // unclosed or very long: up to the first stop character, as if unquoted
  }
  let end = start;
  while (end < text.length && !VALUE_STOP.has(text[end] ?? "")) end++;
  const value = text.slice(start, end);
  // `Authorization: Basic dXNlcjpwYXNz`: keep the scheme, filter its credentials.
  if (text[sep] === ":" && !afterScheme && isBlank(text[end]) && AUTH_SCHEMES.has(value.toLowerCase())) return valueSpan(text, end, true);
  const prose = !afterScheme && text[sep] === ":" && isBlank(text[sep + 1]) && !quoted && PROSE_WORD.test(value);
  return [start, end, prose];
}

/** The key that ends just before the separator at `sep` (blanks and one closing quote skipped). */
function keyBefore(text: string, sep: number, floor: number): string {
  let end = sep;
  for (let k = 0; k < MAX_BLANKS && end > floor && isBlank(text[end - 1]); k++) end--;
  if (end > floor && QUOTES.has(text[end - 1] ?? "")) end--;
  let start = end;
  while (start > floor && end - start < MAX_KEY && isKeyChar(text.charCodeAt(start - 1))) start--;
  return text.slice(start, end);
}

/**
 * Replaces the values of `key=value` and `key: value` pairs whose key is sensitive, wherever
 * they appear in text: query strings and form bodies (`?a=1&token=…`), cookie strings
 * (`sessionid=…; theme=dark`), log lines (`login failed password=…`, `password: …`), JSON
 * and config snippets (`"api_key": "…"`, `secret = '…'`). A key alone in prose ("the password
 * field is required") has no separator and is kept, and so is a label followed by a word
 * ("auth: payment declined"): a secret after `key: ` has digits, symbols or mixed case. `separators` is `"="` for source-code
 * lines, where `name: Type` is a type annotation rather than a value.
 */
export function scrubKeyValues(text: string, isSensitive: (key: string) => boolean, counter: Counter, separators = "=:"): string {
  const pattern = separators === "=" ? /=/g : /[=:]/g;
  const out: string[] = [];
  let last = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const sep = match.index;
    const next = text[sep + 1];
    // `==`, `!=`, `<=`, `=>` are comparisons and arrows; `://` starts a URL.
    if (next === "=" || next === ">" || (text[sep] === ":" && next === "/") || "=!<>".includes(text[sep - 1] ?? " ")) continue;
    const key = keyBefore(text, sep, last);
    if (key === "" || !isSensitive(key)) continue;
    // The value is scanned only after a sensitive key and never twice: linear on any input.
    const span = valueSpan(text, sep);
    if (!span) continue;
    const [start, end, prose] = span;
    pattern.lastIndex = Math.max(pattern.lastIndex, end);
    const value = text.slice(start, end);
    if (prose || value === "" || value === FILTERED || PLACEHOLDER.test(value)) continue;
    out.push(text.slice(last, start), FILTERED);
    last = end;
    counter.count++;
  }
  if (last === 0) return text;
  out.push(text.slice(last));
  return out.join("");
}

/** All text rules, in an order where earlier replacements cannot hide later secrets. */
export function scrubText(
  text: string,
  isSensitive: ((key: string) => boolean) | undefined,
  counter: Counter,
  separators?: string,
): string {
  // Most strings (names, paths, plain messages) can hold none of the secrets: each rule runs
  // only where the text has what its secret needs, found by one native regex scan apiece.
  let out = text.includes(PEM_BEGIN) ? scrubPrivateKeys(text, counter) : text;
  if (MAY_HOLD_BEARER.test(out)) out = scrubBearerTokens(out, counter);
  out = scrubUrlPasswords(out, counter);
  if (isSensitive && (separators === "=" ? out.includes("=") : MAY_HOLD_PAIR.test(out)))
    out = scrubKeyValues(out, isSensitive, counter, separators);
  // Every card number this rule takes starts with four digits in a row (cardGroups).
  return MAY_HOLD_CARD.test(out) ? scrubCardNumbers(out, counter) : out;
}

const MAY_HOLD_BEARER = /bearer/i;
const MAY_HOLD_PAIR = /[=:]/;
const MAY_HOLD_CARD = /\d{4}/;
