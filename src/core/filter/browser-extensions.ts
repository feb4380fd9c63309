/**
 * Errors that extensions and injected third-party scripts throw inside a page: nothing the
 * app's team can fix. Sentry turns this filter on for every new project.
 *
 * Two checks, both case-insensitive substring tests (no regex, so no backtracking):
 * - a message (value, "Type: value" or log message) names a global or URL known to come
 *   from an extension or injected toolbar;
 * - the frame that threw — the newest one not `<anonymous>` or `[native code]` — was
 *   loaded from an extension URL scheme or a known injected script.
 *
 * Sources of the lists: Sentry's "Decluttering Sentry" ignore lists for raven-js
 * (docs.sentry.io/platforms/javascript/legacy-sdk/tips/, after
 * blog.errorception.com/2012/03/tale-of-unfindable-js-error.html), and the markers
 * Sentry's browser-extension filter is documented to use (docs/protocol.md#inbound-filters).
 * `ms-browser-extension://` (EdgeHTML) is our addition.
 */
import { crashFrameUrl, eventMessages, exceptions } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

/** Fragments of messages thrown by extensions, toolbars and injected scripts. */
export const EXTENSION_MESSAGE_MARKERS: readonly string[] = [
  "top.GLOBALS",
  "originalCreateNotification",
  "canvas.contentDocument",
  "MyApp_RemoveAllHighlights",
  "http://tt.epicplay.com",
  "Can't find variable: ZiteReader",
  "jigsaw is not defined",
  "ComboSearch is not defined",
  "http://loading.retry.widdit.com/",
  "atomicFindClose",
  "fb_xd_fragment", // Facebook's cross-domain helper
  "bmi_SafeAddOnload", // ISP "optimizing" proxies
  "EBCallBackMessageReceived",
  "_gCrWeb", // Chrome on iOS
  "conduitPage", // Conduit toolbar
  "null is not an object (evaluating 'elt.parentNode')", // Google Search app on iOS
  "plugin.setSuspendState is not a function", // Dragon (Nuance) extension
  "Extension context invalidated", // an extension reloaded under its content script
  "webkit-masked-url:", // Safari hides extension URLs behind this scheme
  "can't access dead object", // Firefox: an extension kept a reference to a closed page
];

/** Prefixes of script URLs that belong to extensions. */
export const EXTENSION_URL_PREFIXES: readonly string[] = [
  "chrome://",
  "chrome-extension://",
  "moz-extension://",
  "safari-extension://",
  "safari-web-extension://",
  "ms-browser-extension://",
  "webkit-masked-url:",
];

/** Fragments of script URLs of known injected or flaky third-party scripts. */
export const INJECTED_SCRIPT_MARKERS: readonly string[] = [
  "graph.facebook.com",
  "connect.facebook.net",
  "eatdifferent.com.woopra-ns.com",
  "static.woopra.com/js/woopra.js",
  "127.0.0.1:4001/isrunning", // Cacaoweb
  "webappstoolbarba.texthelp.com/",
  "metrics.itunes.apple.com.edgesuite.net/",
  "kaspersky-labs.com", // Kaspersky Protection
];

const lower = (list: readonly string[]): readonly string[] => list.map((s) => s.toLowerCase());
const MESSAGE_MARKERS = lower(EXTENSION_MESSAGE_MARKERS);
const URL_PREFIXES = lower(EXTENSION_URL_PREFIXES);
const SCRIPT_MARKERS = lower(INJECTED_SCRIPT_MARKERS);

function fromExtensionScript(url: string): boolean {
  const u = url.trim().toLowerCase();
  return URL_PREFIXES.some((p) => u.startsWith(p)) || SCRIPT_MARKERS.some((m) => u.includes(m));
}

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.browserExtensions) return null;
  const messages = eventMessages(event).map((m) => m.toLowerCase());
  if (messages.some((m) => MESSAGE_MARKERS.some((marker) => m.includes(marker)))) return "browser-extensions";
  for (const exception of exceptions(event)) {
    const url = crashFrameUrl(exception);
    if (url !== undefined && fromExtensionScript(url)) return "browser-extensions";
  }
  return null;
}
