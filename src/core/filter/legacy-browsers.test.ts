import { describe, expect, it } from "vitest";
import { DEFAULT_LEGACY_BROWSER_RULES } from "./config";
import { shouldFilter } from "./legacy-browsers";
import { UA, browserError, config } from "./test-events";
import { parseBrowserContext, parseUserAgent } from "./user-agent";

describe("parseUserAgent", () => {
  it.each([
    [UA.chrome120, "chrome", 120],
    [UA.headlessChrome, "chrome", 131],
    [UA.chromeAndroid, "chrome", 124],
    [UA.chromeIos, "chrome", 124],
    [UA.samsung23, "chrome", 115],
    [UA.firefox66, "firefox", 66],
    [UA.safari11, "safari", 11],
    [UA.iosSafari16, "safari", 16],
    [UA.ie8, "ie", 8],
    [UA.ie11, "ie", 11],
    [UA.ieMobile10, "ie", 10],
    [UA.edge18, "edge", 18],
    [UA.edge120, "edge", 120],
    [UA.opera12, "opera", 12],
    [UA.opera50, "opera", 50],
    [UA.operaMini7, "opera_mini", 7],
    [UA.android2, "android", 2],
    [UA.android4, "android", 4],
  ])("reads %s", (ua, family, major) => {
    expect(parseUserAgent(ua)).toEqual({ family, major });
  });

  it("returns null for clients it does not know", () => {
    expect(parseUserAgent("curl/8.5.0")).toBeNull();
    expect(parseUserAgent("sentry.javascript.node/11.1.0")).toBeNull();
    expect(parseUserAgent("")).toBeNull();
  });
});

describe("parseBrowserContext", () => {
  it("maps ua-parser family names and reads the major version", () => {
    expect(parseBrowserContext("Mobile Safari", "11.0")).toEqual({ family: "safari", major: 11 });
    expect(parseBrowserContext("IE", "11.0")).toEqual({ family: "ie", major: 11 });
    expect(parseBrowserContext("Chrome", "abc")).toBeNull();
    expect(parseBrowserContext("Netscape", "4.0")).toBeNull();
    expect(parseBrowserContext("constructor", "1")).toBeNull();
  });
});

describe("legacy-browsers filter", () => {
  it.each([
    ["IE 8", UA.ie8],
    ["IE 10", UA.ie10],
    ["IE 11", UA.ie11],
    ["IE Mobile 10", UA.ieMobile10],
    ["EdgeHTML 18", UA.edge18],
    ["Safari 11", UA.safari11],
    ["iOS Safari 11", UA.iosSafari11],
    ["Firefox 66", UA.firefox66],
    ["Chrome 62", UA.chrome62],
    ["Opera 12 (Presto)", UA.opera12],
    ["Opera 50", UA.opera50],
    ["Opera Mini 7", UA.operaMini7],
    ["Android 2.3 browser", UA.android2],
  ])("drops %s by default", (_name, userAgent) => {
    expect(shouldFilter(browserError({ userAgent }), config())).toBe("legacy-browsers");
  });

  it.each([
    ["Chrome 120", UA.chrome120],
    ["Chrome 63", UA.chrome63],
    ["headless Chrome", UA.headlessChrome],
    ["Chrome on Android", UA.chromeAndroid],
    ["Chrome on iOS", UA.chromeIos],
    ["Firefox 115", UA.firefox115],
    ["Safari 17", UA.safari17],
    ["iOS Safari 16", UA.iosSafari16],
    ["Edge 120", UA.edge120],
    ["Opera 106", UA.opera106],
    ["Android 4.1 browser", UA.android4],
    ["Samsung Internet 23", UA.samsung23],
    ["an unknown client", "curl/8.5.0"],
  ])("keeps %s", (_name, userAgent) => {
    expect(shouldFilter(browserError({ userAgent }), config())).toBeNull();
  });

  it("falls back to contexts.browser when there is no User-Agent header", () => {
    expect(shouldFilter({ contexts: { browser: { name: "IE", version: "11.0" } } }, config())).toBe("legacy-browsers");
    expect(shouldFilter({ contexts: { browser: { name: "Chrome", version: "120.0.6099" } } }, config())).toBeNull();
  });

  it("prefers the header over contexts.browser", () => {
    const event = { ...browserError({ userAgent: UA.chrome120 }), contexts: { browser: { name: "IE", version: "9.0" } } };
    expect(shouldFilter(event, config())).toBeNull();
  });

  it("uses the project's own rules when given", () => {
    const cfg = config({ legacyBrowserRules: [{ browser: "chrome", maxMajorVersion: 119 }] });
    expect(shouldFilter(browserError({ userAgent: UA.chrome63 }), cfg)).toBe("legacy-browsers");
    expect(shouldFilter(browserError({ userAgent: UA.chrome120 }), cfg)).toBeNull();
    expect(shouldFilter(browserError({ userAgent: UA.ie11 }), cfg)).toBeNull();
  });

  it("defaults to Sentry's eight browser families", () => {
    expect(DEFAULT_LEGACY_BROWSER_RULES.map((r) => `${r.browser}<=${r.maxMajorVersion}`)).toEqual([
      "ie<=11",
      "edge<=18",
      "safari<=11",
      "firefox<=66",
      "chrome<=62",
      "opera<=50",
      "android<=3",
      "opera_mini<=34",
    ]);
  });

  it("keeps everything when switched off or given no rules", () => {
    expect(shouldFilter(browserError({ userAgent: UA.ie8 }), config({ legacyBrowsers: false }))).toBeNull();
    expect(shouldFilter(browserError({ userAgent: UA.ie8 }), config({ legacyBrowserRules: [] }))).toBeNull();
  });
});
