import { type InboundFilterConfig, type LegacyBrowserRule } from "./types";

/**
 * What counts as a legacy browser, as Sentry defines it since its Feb 2024 update: each
 * family "version N and lower" (Sentry API docs, "Update an Inbound Data Filter",
 * `legacy-browser` subfilters ie, edge, safari, firefox, chrome, opera, android,
 * opera_mini). Sentry turns all eight on for new projects. `edge` 18 and lower is the
 * EdgeHTML engine; Chromium Edge starts at 79. `android` is the stock Android browser,
 * whose version is the Android release.
 */
export const DEFAULT_LEGACY_BROWSER_RULES: readonly LegacyBrowserRule[] = Object.freeze([
  { browser: "ie", maxMajorVersion: 11 },
  { browser: "edge", maxMajorVersion: 18 },
  { browser: "safari", maxMajorVersion: 11 },
  { browser: "firefox", maxMajorVersion: 66 },
  { browser: "chrome", maxMajorVersion: 62 },
  { browser: "opera", maxMajorVersion: 50 },
  { browser: "android", maxMajorVersion: 3 },
  { browser: "opera_mini", maxMajorVersion: 34 },
]);

/**
 * The filters every new project starts with (PRODUCT.md fact 8: default inbound filters,
 * each switchable per project).
 *
 * On: script-error and resize-observer (fact 8), and the three Sentry turns on for every
 * new project: browser extensions, legacy browsers, web crawlers.
 *
 * Localhost is off, as Sentry ships new projects (its inbound filters:
 * https://docs.sentry.io/concepts/data-management/filtering/): a team trying Telltale from
 * its own machine sees its events. Projects created before this
 * default changed keep filtering localhost (migration 0010 wrote their value down).
 * See docs/decisions/0008-localhost-filter-off-by-default.md.
 */
export const DEFAULT_INBOUND_FILTER_CONFIG: Readonly<InboundFilterConfig> = Object.freeze({
  scriptError: true,
  resizeObserver: true,
  browserExtensions: true,
  localhost: false,
  webCrawlers: true,
  legacyBrowsers: true,
  legacyBrowserRules: DEFAULT_LEGACY_BROWSER_RULES,
  errorMessages: Object.freeze([]),
  releases: Object.freeze([]),
});

/** The defaults with a project's settings laid over them; a missing setting keeps its default. */
export function inboundFilterConfig(overrides: Partial<InboundFilterConfig> = {}): InboundFilterConfig {
  const d = DEFAULT_INBOUND_FILTER_CONFIG;
  return {
    scriptError: overrides.scriptError ?? d.scriptError,
    resizeObserver: overrides.resizeObserver ?? d.resizeObserver,
    browserExtensions: overrides.browserExtensions ?? d.browserExtensions,
    localhost: overrides.localhost ?? d.localhost,
    webCrawlers: overrides.webCrawlers ?? d.webCrawlers,
    legacyBrowsers: overrides.legacyBrowsers ?? d.legacyBrowsers,
    legacyBrowserRules: overrides.legacyBrowserRules ?? d.legacyBrowserRules,
    errorMessages: overrides.errorMessages ?? d.errorMessages,
    releases: overrides.releases ?? d.releases,
  };
}
