import { ITEM_CATEGORIES } from "../envelope/index";
import { knownItemType } from "../envelope/item-types";
import type { ScrubOptions } from "../normalize/scrub";
import { storableText } from "../normalize/values";
import type { OutcomeCount } from "../outcomes/record";
import type { DeadLetterStore, NewDeadLetter } from "../ports/dead-letters";
import { deadLetterExcerpt } from "./excerpt";

/** An envelope the digest sets aside, with what is known of it. */
export interface DeadLetter {
  projectId: number;
  keyId: number;
  receivedAt: number;
  body: Uint8Array;
  /** Item types as far as the envelope parsed; empty when it did not. */
  itemTypes: readonly string[];
  reason: string;
  scrubbing: Partial<ScrubOptions>;
}

/** The outcome reason every dead-lettered item is counted with. */
export const DEAD_LETTER_REASON = "dead_letter";
const MAX_REASON_CHARS = 500;
const MAX_TYPES_CHARS = 500;

/** Categories of the envelope's items; "default" when nothing parsed (Sentry's category for the unknown). */
function categories(itemTypes: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of itemTypes) {
    const known = knownItemType(t);
    out.push((known && ITEM_CATEGORIES[known]) ?? "default");
  }
  return out.length > 0 ? out : ["default"];
}

/** The row a dead letter is stored as, and the outcomes it counts: each item `invalid` / `dead_letter`. */
export function deadLetterRecord(letter: DeadLetter, now: number): { row: NewDeadLetter; outcomes: OutcomeCount[] } {
  const row: NewDeadLetter = {
    projectId: letter.projectId,
    keyId: letter.keyId,
    receivedAt: letter.receivedAt,
    createdAt: now,
    itemTypes: storableText(letter.itemTypes.join(",")).slice(0, MAX_TYPES_CHARS),
    size: letter.body.length,
    reason: storableText(letter.reason).slice(0, MAX_REASON_CHARS),
    excerpt: deadLetterExcerpt(letter.body, letter.scrubbing),
    body: letter.body,
  };
  const outcomes = categories(letter.itemTypes).map((category) => ({
    projectId: letter.projectId,
    category,
    outcome: "invalid" as const,
    reason: DEAD_LETTER_REASON,
    quantity: 1,
    at: letter.receivedAt,
  }));
  return { row, outcomes };
}

/**
 * Stores a dead letter and counts its items. A failure here is not the envelope's fault (the
 * database refuses a plain row): it propagates. The digest writes its dead letters inside the
 * batch's transaction instead (recordDeadLetterIn, src/db/dead-letter-store.ts), so there a
 * failure retries the whole batch later.
 */
export async function recordDeadLetter(store: DeadLetterStore, letter: DeadLetter, now: number): Promise<void> {
  const { row, outcomes } = deadLetterRecord(letter, now);
  await store.record(row, outcomes);
}
