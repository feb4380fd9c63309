import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { ITEM_CATEGORIES } from "../envelope/index";
import { knownItemType } from "../envelope/item-types";
import type { ScrubOptions } from "../normalize/scrub";
import { storableText } from "../normalize/values";
import { writeOutcomes } from "../../db/outcome-store";
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

/**
 * Stores a dead letter and counts each of its items as `invalid` / `dead_letter`, in the
 * caller's transaction. A failure here is not the envelope's fault (the database refuses a
 * plain row): it propagates and the whole batch is retried later.
 */
export async function recordDeadLetter(db: Kysely<DB>, letter: DeadLetter, now: number): Promise<void> {
  await db
    .insertInto("dead_letters")
    .values({
      project_id: letter.projectId,
      key_id: letter.keyId,
      received_at: letter.receivedAt,
      created_at: now,
      item_types: storableText(letter.itemTypes.join(",")).slice(0, MAX_TYPES_CHARS),
      size: letter.body.length,
      reason: storableText(letter.reason).slice(0, MAX_REASON_CHARS),
      excerpt: deadLetterExcerpt(letter.body, letter.scrubbing),
      body: Buffer.from(letter.body),
    })
    .execute();
  const counts = categories(letter.itemTypes).map((category) => ({
    projectId: letter.projectId,
    category,
    outcome: "invalid" as const,
    reason: DEAD_LETTER_REASON,
    quantity: 1,
    at: letter.receivedAt,
  }));
  await writeOutcomes(db, counts);
}
