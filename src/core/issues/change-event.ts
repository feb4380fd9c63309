/**
 * The facts of the event behind a digest's issue change, carried in the change's `data.event`:
 * rule filters read the event's tags and release (Sentry evaluates filters on the event), and
 * the consumer then needs no read of the event itself (docs/decisions/0019-frequency-conditions.md).
 * When a batch brings several events of one issue, the newest speaks for them. The tags are
 * those the issue index keeps (src/core/issues/event-tags.ts), so bounded: 60 tags of at most 200
 * characters.
 */
import { z } from "zod";
import type { EventFacts } from "./event-tags";

export interface ChangeEvent {
  id: string;
  release: string | null;
  environment: string | null;
  tags: Array<[string, string]>;
}

export function changeEvent(eventId: string, facts: EventFacts): ChangeEvent {
  return { id: eventId, release: facts.release, environment: facts.environment, tags: facts.tags };
}

const Stored = z.object({
  id: z.string(),
  release: z.string().nullable(),
  environment: z.string().nullable(),
  tags: z.array(z.tuple([z.string(), z.string()])),
});

/** The event a change carries; null for changes people make and for changes written before it was carried. */
export function readChangeEvent(data: Record<string, unknown>): ChangeEvent | null {
  const parsed = Stored.safeParse(data.event);
  return parsed.success ? parsed.data : null;
}
