/**
 * A project's own list of errors to drop: globs (`*`, `?`, case-insensitive, whole-text)
 * matched against every text that names the error — "Type: value", the value alone and
 * the message or log entry — like Sentry's error-message filter ("{type}: {value}" or the
 * formatted message) and the SDK's `ignoreErrors` (value, and "type: value").
 */
import { matchesAnyGlob } from "./glob";
import { eventMessages } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (cfg.errorMessages.length === 0) return null;
  return matchesAnyGlob(cfg.errorMessages, eventMessages(event), { caseInsensitive: true }) ? "error-message" : null;
}
