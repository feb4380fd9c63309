/**
 * Events from browsers old enough that their reports are low-fidelity or about
 * features they lack (Sentry: "Older browsers often give less accurate information").
 * What counts as legacy is `cfg.legacyBrowserRules`, by default Sentry's current list
 * (`DEFAULT_LEGACY_BROWSER_RULES` in `config.ts`).
 *
 * The browser comes from the `User-Agent` request header (the browser SDK sends it in
 * `request.headers`); when there is none, from `contexts.browser`. An unknown browser,
 * or one whose version cannot be read, is never filtered.
 */
import { browserContext, userAgent } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";
import { type ParsedBrowser, parseBrowserContext, parseUserAgent } from "./user-agent";

function browserOf(event: FilterableEvent): ParsedBrowser | null {
  const ua = userAgent(event);
  const parsed = ua === undefined ? null : parseUserAgent(ua);
  if (parsed !== null) return parsed;
  const { name, version } = browserContext(event);
  return parseBrowserContext(name, version);
}

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.legacyBrowsers || cfg.legacyBrowserRules.length === 0) return null;
  const browser = browserOf(event);
  if (browser === null) return null;
  const legacy = cfg.legacyBrowserRules.some((r) => r.browser === browser.family && browser.major <= r.maxMajorVersion);
  return legacy ? "legacy-browsers" : null;
}
