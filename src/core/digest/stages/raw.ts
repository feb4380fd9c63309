import { containedItems, type EnvelopeItem } from "../../envelope/index";
import { outcome, type Stage, type StageContext } from "../stage";

/** Keeps the item as received and counts it under `category` (none for uncounted types). */
export function keepRaw(c: StageContext, item: EnvelopeItem, category: string | null): void {
  c.records.rawItems.push({
    projectId: c.projectId,
    type: item.header.type.slice(0, 64),
    eventId: c.header.eventId ?? null,
    receivedAt: c.receivedAt,
    payload: Buffer.from(item.payload),
  });
  if (category) outcome(c, category, "accepted", "", containedItems(item.header, item.payload.length));
}

/** Item types kept as bytes and never walked (profiles, replays, metrics, types Telltale does not read yet). */
export const rawStage = (category: string | null): Stage => ({
  name: `raw:${category ?? "uncounted"}`,
  run: (c, item) => keepRaw(c, item, category),
});
