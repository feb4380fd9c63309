import { describe, expect, it } from "vitest";
import {
  DEFAULT_INBOUND_FILTER_CONFIG,
  DEFAULT_LEGACY_BROWSER_RULES,
  FILTER_REASONS,
  INBOUND_FILTERS,
  inboundFilterConfig,
  runInboundFilters,
} from "./index";
import { ALL_OFF, UA, browserError, browserMessage, config, mutedScriptError } from "./test-events";

describe("default inbound filters", () => {
  it("turns on every filter but localhost (as Sentry ships new projects), with Sentry's legacy-browser list", () => {
    expect(DEFAULT_INBOUND_FILTER_CONFIG).toEqual({
      scriptError: true,
      resizeObserver: true,
      browserExtensions: true,
      localhost: false,
      webCrawlers: true,
      legacyBrowsers: true,
      legacyBrowserRules: DEFAULT_LEGACY_BROWSER_RULES,
      errorMessages: [],
      releases: [],
    });
  });

  it("lays a project's settings over the defaults", () => {
    const cfg = inboundFilterConfig({ localhost: true, scriptError: false, releases: ["*-beta"] });
    expect(cfg).toMatchObject({ localhost: true, scriptError: false, resizeObserver: true, releases: ["*-beta"] });
    expect(inboundFilterConfig()).toEqual(DEFAULT_INBOUND_FILTER_CONFIG);
  });

  it("keeps a normal error from a current browser", () => {
    expect(runInboundFilters(browserError(), DEFAULT_INBOUND_FILTER_CONFIG)).toBeNull();
  });

  it("keeps an error from headless Chromium on localhost by default, and filters it once localhost is switched on", () => {
    const event = browserError({ userAgent: UA.headlessChrome, url: "http://localhost:8000/boom" });
    expect(runInboundFilters(event, DEFAULT_INBOUND_FILTER_CONFIG)).toBeNull();
    expect(runInboundFilters(event, inboundFilterConfig({ localhost: true }))).toBe("localhost");
  });

  it("names the reason of each default filter", () => {
    const cfg = DEFAULT_INBOUND_FILTER_CONFIG;
    expect(runInboundFilters(mutedScriptError(), cfg)).toBe("script-error");
    expect(runInboundFilters(browserMessage("ResizeObserver loop limit exceeded"), cfg)).toBe("resize-observer");
    expect(runInboundFilters(browserError({ value: "Extension context invalidated." }), cfg)).toBe("browser-extensions");
    expect(runInboundFilters(browserError({ userAgent: UA.ie11 }), cfg)).toBe("legacy-browsers");
    expect(runInboundFilters(browserError({ userAgent: UA.googlebot }), cfg)).toBe("web-crawlers");
  });
});

describe("runInboundFilters", () => {
  it("reports the first filter in order: the project's rules before the built-in ones", () => {
    const event = browserError({ userAgent: UA.ie11, release: "shop-web@1.0.0", value: "Extension context invalidated." });
    const cfg = config({ localhost: true, releases: ["shop-web@1.*"], errorMessages: ["*context*"] });
    expect(runInboundFilters(event, cfg)).toBe("release-version");
    expect(runInboundFilters(event, { ...cfg, releases: [] })).toBe("error-message");
    expect(runInboundFilters(event, { ...cfg, releases: [], errorMessages: [] })).toBe("browser-extensions");
    expect(runInboundFilters(event, { ...cfg, releases: [], errorMessages: [], browserExtensions: false })).toBe("legacy-browsers");
  });

  it("keeps every event when every filter is off", () => {
    const events = [
      mutedScriptError(),
      browserMessage("ResizeObserver loop completed with undelivered notifications."),
      browserError({ value: "fb_xd_fragment" }),
      browserError({ url: "http://localhost:3000/" }),
      browserError({ userAgent: UA.googlebot }),
      browserError({ userAgent: UA.ie8 }),
    ];
    for (const event of events) expect(runInboundFilters(event, ALL_OFF)).toBeNull();
  });

  it("runs one filter per reason", () => {
    expect(INBOUND_FILTERS).toHaveLength(FILTER_REASONS.length);
  });

  it("keeps the event rather than throw when reading the event fails", () => {
    const hostile = {
      get exception(): never {
        throw new Error("getter");
      },
    };
    expect(runInboundFilters(hostile, DEFAULT_INBOUND_FILTER_CONFIG)).toBeNull();
  });
});
