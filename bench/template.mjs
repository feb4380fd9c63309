// Corpus entries → HTTP requests for one target. Per target, the DSN's public key and
// project id replace the placeholders (URL, `X-Sentry-Auth`, `trace.public_key`). Per send,
// the ids that must be unique get fresh values — event ids, trace ids, and the span ids of
// segment spans (Telltale stores a segment as a transaction keyed by its span id) — so
// nothing is deduplicated and every accepted event becomes a row.
//
// Gzip bodies stay gzip without compressing per send: the fixed stretches between the ids
// are compressed once (at the SDK's level), and each id is sent as a tiny "stored" gzip
// member; concatenated gzip members are one valid gzip stream (RFC 1952 §2.2). In gzip bodies
// an id that occurs more than MAX_GZIP_OCCURRENCES times (a trace id in a 1000-span
// container) keeps its captured value, and a segment's span id is replaced only where the
// segment span declares it (its children keep the old parent id).
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { envelopeItems } from "./corpus.mjs";
import { PLACEHOLDER_KEY, PLACEHOLDER_PROJECT } from "./corpus/placeholder.mjs";
import { Buffer } from "node:buffer";

const MAX_GZIP_OCCURRENCES = 8;
const MAX_TOKENS = 16;

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

function crc32(buf) {
  let c = -1;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** One gzip member holding `data` in a stored (uncompressed) deflate block. */
function storedGzipMember(data) {
  const out = Buffer.alloc(10 + 5 + data.length + 8);
  out[0] = 0x1f;
  out[1] = 0x8b;
  out[2] = 8; // deflate
  out[9] = 0xff; // OS unknown
  out[10] = 1; // BFINAL, BTYPE=00 (stored)
  out.writeUInt16LE(data.length, 11);
  out.writeUInt16LE(~data.length & 0xffff, 13);
  data.copy(out, 15);
  out.writeUInt32LE(crc32(data), 15 + data.length);
  out.writeUInt32LE(data.length, 19 + data.length);
  return out;
}

const allIndexes = (text, needle) => {
  const found = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
};

/** The ids in an entry that must be fresh per send, with where each one occurs. */
function uniqueTokens(entry, text, gzip) {
  const values = new Map(); // value -> "event" | "trace" | "segment"
  for (const m of text.matchAll(/"event_id"\s*:\s*"([0-9a-f]{32})"/g)) values.set(m[1], "event");
  for (const m of text.matchAll(/"trace_id"\s*:\s*"([0-9a-f]{32})"/g)) if (!values.has(m[1])) values.set(m[1], "trace");
  if (entry.kind === "transaction") {
    for (const item of envelopeItems(entry.body, entry.endpoint).items) {
      if (item.header.type !== "span") continue;
      for (const span of JSON.parse(item.payload.toString()).items ?? [])
        if (span.is_segment === true && span.span_id) values.set(span.span_id, "segment");
    }
  }
  const tokens = [];
  for (const [value, role] of values) {
    let at = allIndexes(text, value);
    if (gzip && at.length > MAX_GZIP_OCCURRENCES) {
      if (role !== "segment") continue;
      at = allIndexes(text, `"span_id":"${value}"`).map((i) => i + '"span_id":"'.length);
    }
    if (at.length && tokens.length < MAX_TOKENS) tokens.push({ value, at });
  }
  return tokens;
}

/** Letters only, no a–f: a suffix that no grouping step mistakes for a number or hex id. */
export function variantWord(k) {
  const letters = "ghijklmnopqrstuvwxyz";
  let s = "";
  let n = k;
  do {
    s += letters[n % letters.length];
    n = Math.floor(n / letters.length);
  } while (n > 0);
  return `v${s}`;
}

/**
 * Where to vary an error so that it groups into another issue (read-path bulk loading):
 * the function name of the crashing frame of the generated app code, or a message event's
 * message. Null when the entry cannot be varied safely (an item with a `length` header).
 */
function variationNeedle(entry, text) {
  if (entry.kind !== "error") return null;
  const { items } = envelopeItems(entry.body, entry.endpoint);
  const item = items.find((i) => i.header.type === "event");
  if (!item || items.some((i) => typeof i.header.length === "number")) return null;
  const event = JSON.parse(item.payload.toString());
  const values = event.exception?.values ?? [];
  for (let e = values.length - 1; e >= 0; e--) {
    const frames = values[e].stacktrace?.frames ?? [];
    for (let f = frames.length - 1; f >= 0; f--) {
      const frame = frames[f];
      const file = frame.abs_path ?? frame.filename ?? "";
      if (!frame.function || !/corpus\/v\d+\/app\/|\/static\/js\/[a-z]+-/.test(file)) continue;
      const needle = `"function":"${frame.function}"`;
      if (text.includes(needle)) return { needle, replace: (w) => `"function":"${frame.function}_${w}"` };
    }
  }
  const message =
    typeof event.message === "string" ? event.message : (event.message?.formatted ?? event.logentry?.formatted ?? event.logentry?.message);
  if (typeof message === "string" && message) {
    const needle = JSON.stringify(message);
    if (text.includes(needle)) return { needle, replace: (w) => JSON.stringify(`${message} (${w})`) };
  }
  return null;
}

/**
 * A request template for one target: fixed byte pieces and numbered slots.
 * target: { host, port, projectId, publicKey }; options.identity sends gzip entries
 * uncompressed; options.vary adds a slot that moves the event to another issue.
 */
export function prepare(entry, target, { identity = false, vary = false } = {}) {
  const gzip = entry.encoding === "gzip" && !identity;
  const text = entry.body.toString("latin1").replaceAll(PLACEHOLDER_KEY, target.publicKey);
  const tokens = uniqueTokens(entry, text, gzip);
  const variation = vary ? variationNeedle(entry, text) : null;
  if (vary && !variation) return null;

  const slots = [];
  tokens.forEach((t, i) => t.at.forEach((at) => slots.push({ at, len: t.value.length, slot: i })));
  if (variation) for (const at of allIndexes(text, variation.needle)) slots.push({ at, len: variation.needle.length, slot: "vary" });
  slots.sort((a, b) => a.at - b.at);

  const level = entry.sdk === "python" ? 9 : 6; // GzipFile's default; zlib's default (Node's createGzip)
  const pieces = [];
  let pos = 0;
  for (const s of slots) {
    if (s.at < pos) continue; // overlapping matches cannot happen with distinct ids; be safe
    if (s.at > pos) pieces.push(Buffer.from(text.slice(pos, s.at), "latin1"));
    pieces.push(s.slot);
    pos = s.at + s.len;
  }
  if (pos < text.length) pieces.push(Buffer.from(text.slice(pos), "latin1"));
  const compiled = gzip ? pieces.map((p) => (typeof p === "number" || p === "vary" ? p : gzipSync(p, { level }))) : pieces;

  const url = entry.path.replace(`/api/${PLACEHOLDER_PROJECT}/`, `/api/${target.projectId}/`).replace(PLACEHOLDER_KEY, target.publicKey);
  const headers = [`POST ${url} HTTP/1.1`, `Host: ${target.host}:${target.port}`];
  for (const [name, value] of Object.entries(entry.headers))
    headers.push(`${name}: ${String(value).replace(PLACEHOLDER_KEY, target.publicKey)}`);
  if (gzip) headers.push("Content-Encoding: gzip");
  return {
    sdk: entry.sdk,
    kind: entry.kind,
    counts: entry.counts,
    bytes: entry.bytes,
    gzip,
    chunked: entry.chunked,
    head: headers.join("\r\n") + "\r\n",
    pieces: compiled,
    tokenLengths: tokens.map((t) => t.value.length),
    variation,
  };
}

/** Fresh ids per send: a random prefix per run, then the send number and the slot. */
export function idSource() {
  const prefix32 = randomBytes(4).toString("hex");
  const prefix16 = randomBytes(2).toString("hex");
  return (len, n, slot) => {
    const counter = n * MAX_TOKENS + slot;
    return len === 32 ? prefix32 + counter.toString(16).padStart(24, "0") : prefix16 + counter.toString(16).padStart(12, "0");
  };
}

/** The request bytes for send number `n` (and, with a variation slot, issue variant `variant`). */
export function build(t, n, ids, variant = 0) {
  const parts = [];
  let length = 0;
  for (const p of t.pieces) {
    let buf;
    if (typeof p === "number") buf = Buffer.from(ids(t.tokenLengths[p], n, p), "latin1");
    else if (p === "vary") buf = Buffer.from(t.variation.replace(variantWord(variant)), "latin1");
    else {
      parts.push(p);
      length += p.length;
      continue;
    }
    if (t.gzip) buf = storedGzipMember(buf);
    parts.push(buf);
    length += buf.length;
  }
  if (t.chunked) {
    // One chunk, as a streaming client that has the whole body at hand sends it.
    return Buffer.concat([
      Buffer.from(`${t.head}Transfer-Encoding: chunked\r\n\r\n${length.toString(16)}\r\n`, "latin1"),
      ...parts,
      Buffer.from("\r\n0\r\n\r\n"),
    ]);
  }
  return Buffer.concat([Buffer.from(`${t.head}Content-Length: ${length}\r\n\r\n`, "latin1"), ...parts]);
}

/**
 * The load mix: a fixed, seeded sequence of template indexes. Errors dominate, as in an error
 * tracker's traffic, with transactions, sessions and client reports beside them.
 */
export const MIX = { error: 0.75, transaction: 0.07, session: 0.13, client_report: 0.05 };

export function schedule(templates, rand, length = 20_000) {
  const byKind = {};
  templates.forEach((t, i) => (byKind[t.kind] ??= []).push(i));
  const kinds = Object.keys(MIX).filter((k) => byKind[k]?.length);
  const total = kinds.reduce((s, k) => s + MIX[k], 0);
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    let x = rand() * total;
    let kind = kinds[kinds.length - 1];
    for (const k of kinds) {
      if (x < MIX[k]) {
        kind = k;
        break;
      }
      x -= MIX[k];
    }
    const list = byKind[kind];
    out[i] = list[Math.floor(rand() * list.length)];
  }
  return out;
}

/**
 * The small-event mix (`--small`): errors only, 60 % of 2–3 KB (decompressed) and the rest of
 * the errors up to 30 KB — what per-request costs show on, which the default mix's 18 KB
 * average hides. `corpus` is the list the templates were prepared from, in the same order.
 */
export const SMALL_MIX = { small: 0.6, upTo30k: 0.4 };

export function scheduleSmall(corpus, rand, length = 20_000) {
  const small = [];
  const rest = [];
  corpus.forEach((e, i) => {
    if (e.kind !== "error") return;
    if (e.bytes >= 2048 && e.bytes < 3072) small.push(i);
    else if (e.bytes < 30 * 1024) rest.push(i);
  });
  if (small.length === 0 || rest.length === 0) throw new Error("the corpus has no 2–3 KB errors or none up to 30 KB");
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    const list = rand() < SMALL_MIX.small ? small : rest;
    out[i] = list[Math.floor(rand() * list.length)];
  }
  return out;
}
