/**
 * "ResizeObserver loop limit exceeded" (older Chrome) and "ResizeObserver loop completed
 * with undelivered notifications." (Chrome, Firefox, Safari today): a browser notice that
 * an observer callback resized what it observes, so delivery slipped to the next frame.
 * It reaches `window.onerror` but breaks nothing (PRODUCT.md fact 8; @sentry/core
 * `DEFAULT_IGNORE_ERRORS` drops the second form client-side).
 *
 * The whole text must be the notice, so a real bug that merely mentions ResizeObserver
 * ("ResizeObserver is not defined") is kept.
 */
import { eventMessages } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

const RESIZE_OBSERVER_LOOP =
  /^(?:Uncaught )?(?:Error: )?ResizeObserver loop (?:limit exceeded|completed with undelivered notifications)\.?$/i;

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.resizeObserver) return null;
  return eventMessages(event).some((m) => RESIZE_OBSERVER_LOOP.test(m.trim())) ? "resize-observer" : null;
}
