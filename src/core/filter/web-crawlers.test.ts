import { describe, expect, it } from "vitest";
import { UA, browserError, config } from "./test-events";
import { isCrawlerUserAgent, shouldFilter } from "./web-crawlers";

describe("web-crawlers filter", () => {
  it.each([
    UA.googlebot,
    UA.googlebotSmartphone,
    UA.bingbot,
    UA.slurp,
    UA.duckduckbot,
    UA.baiduspider,
    UA.yandexbot,
    UA.facebook,
    UA.twitterbot,
    UA.ahrefs,
    UA.semrush,
    UA.pingdom,
    UA.uptimeRobot,
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Mozilla/5.0 (compatible; HubSpot Crawler; web-crawlers@hubspot.com)",
    "Mozilla/5.0 (compatible; SomeNewBot/0.1; +https://example.org/bot)",
  ])("drops events from %s", (userAgent) => {
    expect(shouldFilter(browserError({ userAgent }), config())).toBe("web-crawlers");
  });

  it("keeps headless Chromium, which our own end-to-end tests drive", () => {
    expect(shouldFilter(browserError({ userAgent: UA.headlessChrome }), config())).toBeNull();
  });

  it("keeps real browsers, the Slack desktop app and CUBOT phones", () => {
    for (const userAgent of [UA.chrome120, UA.firefox115, UA.iosSafari16, UA.slackDesktop, UA.cubotPhone]) {
      expect(isCrawlerUserAgent(userAgent)).toBe(false);
      expect(shouldFilter(browserError({ userAgent }), config())).toBeNull();
    }
  });

  it("reads the header case-insensitively, from an object or a pair list", () => {
    expect(shouldFilter({ request: { headers: { "user-agent": UA.bingbot } } }, config())).toBe("web-crawlers");
    expect(
      shouldFilter(
        {
          request: {
            headers: [
              ["Accept", "*/*"],
              ["USER-AGENT", UA.bingbot],
            ],
          },
        },
        config(),
      ),
    ).toBe("web-crawlers");
  });

  it("falls back to contexts.browser.name when there is no header", () => {
    expect(shouldFilter({ contexts: { browser: { name: "Googlebot", version: "2.1" } } }, config())).toBe("web-crawlers");
  });

  it("keeps everything when switched off", () => {
    expect(shouldFilter(browserError({ userAgent: UA.googlebot }), config({ webCrawlers: false }))).toBeNull();
  });
});
