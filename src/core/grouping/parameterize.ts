/**
 * Message normalization for grouping (docs/protocol.md#grouping; develop docs "Fallback Grouping"): keep the
 * first two non-empty lines, then replace the parts that vary between occurrences of the same
 * problem with placeholders, so "User 123 not found" and "User 456 not found" group together.
 *
 * Three passes, each linear in the text: quoted values (`'…'`, `"…"`) become `<quoted_str>`;
 * each whitespace-separated word is tested whole (URL, email, UUID, IP, date, hostname, hex,
 * duration, number); a word that is none of those is cut at punctuation and each piece is
 * tested again, so `/users/123`, `id=42` and `retry-3` lose their numbers too.
 */
import { GROUPING_LIMITS } from "./limits";
import {
  hexKind,
  isAlnum,
  isDateOrTime,
  isDuration,
  isEmail,
  isFloat,
  isHostname,
  isInt,
  isIp,
  isTraceparent,
  isUrl,
  isUuid,
  isUuidAt,
  isWord,
} from "./tokens";

const LEADING = new Set(["(", "[", "{", "<", '"', "'"]);
const TRAILING = new Set([")", "]", "}", ">", ",", ";", ":", ".", "!", "?", '"', "'"]);

/** The first non-empty lines (trimmed), with `...` when more followed, capped in length. */
export function trimMessage(text: string): string {
  const lines: string[] = [];
  let more = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (lines.length === GROUPING_LIMITS.messageLines) {
      more = true;
      break;
    }
    lines.push(line);
  }
  const joined = lines.join("\n") + (more ? "..." : "");
  return joined.length > GROUPING_LIMITS.messageChars ? joined.slice(0, GROUPING_LIMITS.messageChars) : joined;
}

/**
 * A quote opens a value when no word character precedes it (so "don't" stays) and closes at the
 * next same quote that no word character follows. Each search starts after the previous quote,
 * so the scan stays linear. Called per line: a value never spans lines.
 */
function replaceQuoted(text: string): string {
  let out = "";
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if ((ch === '"' || ch === "'") && (i === 0 || !isWord(text.charCodeAt(i - 1)))) {
      const close = text.indexOf(ch, i + 1);
      if (close > i + 1 && (close + 1 === text.length || !isWord(text.charCodeAt(close + 1)))) {
        out += text.slice(last, i) + "<quoted_str>";
        i = last = close + 1;
        continue;
      }
    }
    i++;
  }
  return out + text.slice(last);
}

/** The placeholder for a whole word, or null. Order follows Sentry's list. */
function classifyWord(word: string): string | null {
  if (isUrl(word)) return "<url>";
  if (isEmail(word)) return "<email>";
  if (isUuid(word)) return "<uuid>";
  if (isTraceparent(word)) return "<traceparent>";
  if (isIp(word)) return "<ip>";
  if (isDateOrTime(word)) return "<date>";
  if (isHostname(word)) return "<hostname>";
  const hex = hexKind(word);
  if (hex) return `<${hex}>`;
  if (isDuration(word)) return "<duration>";
  if (isFloat(word)) return "<float>";
  if (isInt(word)) return "<int>";
  return null;
}

/** A piece of a word, between punctuation: fewer shapes, plus `<bool>` right after `=`. */
function classifyPiece(piece: string, before: string): string {
  if (isEmail(piece)) return "<email>";
  if (isIp(piece)) return "<ip>";
  const hex = hexKind(piece);
  if (hex) return `<${hex}>`;
  if (isDuration(piece)) return "<duration>";
  if (isFloat(piece)) return "<float>";
  if (isInt(piece)) return "<int>";
  if (before === "=" && (piece.toLowerCase() === "true" || piece.toLowerCase() === "false")) return "<bool>";
  if (!piece.includes(".")) return piece;
  // `v1.2.3`, `file.123`: numbers between dots
  return piece
    .split(".")
    .map((part) => (isInt(part) ? "<int>" : hexKind(part) ? "<hex>" : part))
    .join(".");
}

function isPieceChar(c: number): boolean {
  return isWord(c) || c === 0x2e /* . */ || c === 0x40; /* @ */
}

/** A word none of whose whole shapes matched: UUIDs inside it, then piece by piece. */
function replaceInside(word: string): string {
  let out = "";
  let before = "";
  let i = 0;
  while (i < word.length) {
    const c = word.charCodeAt(i);
    if (!isPieceChar(c)) {
      before = word[i]!;
      out += before;
      i++;
      continue;
    }
    if (
      (i === 0 || !isAlnum(word.charCodeAt(i - 1))) &&
      isUuidAt(word, i) &&
      (i + 36 === word.length || !isAlnum(word.charCodeAt(i + 36)))
    ) {
      out += "<uuid>";
      i += 36;
      before = "";
      continue;
    }
    let end = i;
    while (end < word.length && isPieceChar(word.charCodeAt(end))) end++;
    out += classifyPiece(word.slice(i, end), before);
    before = "";
    i = end;
  }
  return out;
}

function replaceWord(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && LEADING.has(word[start]!)) start++;
  while (end > start && TRAILING.has(word[end - 1]!)) end--;
  if (start === end) return word;
  const core = word.slice(start, end);
  const replaced = classifyWord(core) ?? replaceInside(core);
  return word.slice(0, start) + replaced + word.slice(end);
}

/** Replaces variable parts with placeholders; whitespace is kept as it was. */
export function parameterize(text: string): string {
  const quoted = text.split("\n").map(replaceQuoted).join("\n");
  let out = "";
  let i = 0;
  while (i < quoted.length) {
    let end = i;
    const space = quoted[i] === " " || quoted[i] === "\t" || quoted[i] === "\n";
    while (end < quoted.length && (quoted[end] === " " || quoted[end] === "\t" || quoted[end] === "\n") === space) end++;
    out += space ? quoted.slice(i, end) : replaceWord(quoted.slice(i, end));
    i = end;
  }
  return out;
}

/**
 * Messages normalized for earlier events: an issue's events mostly repeat one message, and
 * parameterizing it is most of what grouping a message costs. Bounded: emptied when full.
 */
const recentMessages = new Map<string, string>();
const RECENT_MESSAGES_MAX = 2048;
/** Longer messages are not remembered (the key would hold them whole). */
const RECENT_MESSAGE_MAX_CHARS = 1024;

/** What a message groups by: its first lines with variable parts replaced. */
export function normalizeMessage(text: string): string {
  if (text.length > RECENT_MESSAGE_MAX_CHARS) return parameterize(trimMessage(text));
  let normalized = recentMessages.get(text);
  if (normalized === undefined) {
    normalized = parameterize(trimMessage(text));
    if (recentMessages.size >= RECENT_MESSAGES_MAX) recentMessages.clear();
    recentMessages.set(text, normalized);
  }
  return normalized;
}
