/**
 * Inbound filters: decide, before an event is stored, whether to drop it and why. The
 * reason is recorded as the event's outcome (CONTRIBUTING.md: nothing is dropped
 * silently).
 *
 * Filters run in a fixed order and the first match names the reason. The project's own
 * rules come first (releases, error messages), so a user sees the rule they wrote; then
 * Sentry's built-in filters in Relay's order (localhost, browser extensions, legacy
 * browsers, web crawlers); then Telltale's message filters (PRODUCT.md fact 8).
 */
import { shouldFilter as browserExtensions } from "./browser-extensions";
import { shouldFilter as errorMessages } from "./error-messages";
import { shouldFilter as legacyBrowsers } from "./legacy-browsers";
import { shouldFilter as localhost } from "./localhost";
import { shouldFilter as releases } from "./releases";
import { shouldFilter as resizeObserver } from "./resize-observer";
import { shouldFilter as scriptError } from "./script-error";
import { type FilterableEvent, type FilterReason, type InboundFilter, type InboundFilterConfig } from "./types";
import { shouldFilter as webCrawlers } from "./web-crawlers";

export { DEFAULT_INBOUND_FILTER_CONFIG, DEFAULT_LEGACY_BROWSER_RULES, inboundFilterConfig } from "./config";
export { compileGlob, globMatch, matchesAnyGlob } from "./glob";
export {
  FILTER_REASONS,
  type BrowserFamily,
  type FilterableEvent,
  type FilterReason,
  type InboundFilter,
  type InboundFilterConfig,
  type LegacyBrowserRule,
} from "./types";

/** The filters in the order they run. */
export const INBOUND_FILTERS: readonly InboundFilter[] = [
  releases,
  errorMessages,
  localhost,
  browserExtensions,
  legacyBrowsers,
  webCrawlers,
  scriptError,
  resizeObserver,
];

/**
 * The edge where untrusted JSON meets the filters. Not validated on purpose: every
 * filter reads through `read.ts`, which checks each value's type at run time.
 */
function asFilterableEvent(value: unknown): FilterableEvent {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as FilterableEvent) : {};
}

/**
 * Why the event should be dropped, or null to keep it. Accepts any parsed JSON. Never
 * throws: should a filter fail on some input nobody foresaw, the event is kept — losing
 * data to a filter bug would be worse than storing one noisy event.
 */
export function runInboundFilters(event: unknown, cfg: InboundFilterConfig): FilterReason | null {
  const filterable = asFilterableEvent(event);
  try {
    for (const filter of INBOUND_FILTERS) {
      const reason = filter(filterable, cfg);
      if (reason !== null) return reason;
    }
  } catch {
    return null;
  }
  return null;
}
