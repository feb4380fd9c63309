import { FILTERED } from "../normalize/limits";
import { textScrubber, type ScrubOptions } from "../normalize/scrub";
import { storableText } from "../normalize/values";

/** Characters of a dead letter's body a page may show. */
export const EXCERPT_CHARS = 4096;
/** Bytes scrubbed before the excerpt is cut, so a secret across the cut is still seen whole. */
const SCRUB_WINDOW = 4 * EXCERPT_CHARS;

/** `"key": "value"` in JSON text, the value with its escapes; linear (no nested quantifiers). */
const JSON_PAIR = /"((?:[^"\\\n]|\\.){1,128})"(\s*:\s*)"((?:[^"\\\n]|\\.)*)"/g;

/**
 * What administrators see of a dead letter: the start of its body with secrets replaced —
 * values under sensitive keys (`"password": "…"`), then the free-text rules (cards, bearer
 * tokens, keys, URL passwords, `key=value`) — made storable and cut to EXCERPT_CHARS.
 */
export function deadLetterExcerpt(body: Uint8Array, options: Partial<ScrubOptions> = {}): string {
  const scrubber = textScrubber(options);
  const window = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, SCRUB_WINDOW)).toString("utf8");
  const keyed = window.replace(JSON_PAIR, (pair, key: string, colon: string, value: string) =>
    value !== "" && scrubber.isSensitive(key) ? `"${key}"${colon}"${FILTERED}"` : pair,
  );
  // Cut before repairing: a cut through a surrogate pair leaves a lone half to replace.
  return storableText(scrubber.text(keyed).slice(0, EXCERPT_CHARS));
}
