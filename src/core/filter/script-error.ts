/**
 * Cross-origin "Script error.": what a browser reports instead of the real message when
 * the failing script came from another origin without CORS (HTML spec, "muted errors").
 * It says nothing actionable (PRODUCT.md fact 8; the browser SDK drops it client-side
 * too, @sentry/core `DEFAULT_IGNORE_ERRORS`).
 *
 * Only the muted kind is dropped: the text must be exactly "Script error" (an optional
 * dot, as the SDK matches it), and either no frame carries a line number — a muted
 * error has none; the browser SDK then adds one synthetic frame at line 0 — or the
 * frame that threw is a script from another origin than the page. An app that throws
 * `new Error("Script error.")` itself has a real same-origin stack and is kept.
 */
import { crashFrameUrl, eventMessages, exceptions, field, frames, httpOrigin, requestUrl } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

const SCRIPT_ERROR = /^(?:Uncaught )?(?:Error: )?Script error\.?$|^Javascript error: Script error\.? on line 0$/i;

function hasLineNumbers(event: FilterableEvent): boolean {
  return exceptions(event).some((exception) =>
    frames(exception).some((frame) => {
      const lineno = field(frame, "lineno");
      return typeof lineno === "number" && lineno > 0;
    }),
  );
}

function threwCrossOrigin(event: FilterableEvent): boolean {
  const page = requestUrl(event);
  const pageOrigin = page === undefined ? undefined : httpOrigin(page);
  if (pageOrigin === undefined) return false;
  return exceptions(event).some((exception) => {
    const url = crashFrameUrl(exception);
    const origin = url === undefined ? undefined : httpOrigin(url);
    return origin !== undefined && origin !== pageOrigin;
  });
}

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.scriptError) return null;
  if (!eventMessages(event).some((m) => SCRIPT_ERROR.test(m.trim()))) return null;
  return !hasLineNumbers(event) || threwCrossOrigin(event) ? "script-error" : null;
}
