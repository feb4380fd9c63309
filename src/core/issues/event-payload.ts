import type { NormalizedEvent } from "../normalize/types";
import type { StoredEvent } from "../ports/telemetry-read";
import { decodePayload } from "../storage/payload";

/**
 * The event a stored row holds, for the issue page and the event API alike: one place reads the
 * stored bytes (compressed, or text from before compression). The digest wrote it normalized,
 * so it is read back as such without validating it again.
 */
export function storedEventPayload(stored: Pick<StoredEvent, "data">): NormalizedEvent {
  return JSON.parse(decodePayload(stored.data)) as NormalizedEvent;
}
