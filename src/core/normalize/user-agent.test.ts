import { describe, expect, it } from "vitest";
import { eventTags } from "../issues/event-tags";
import { normalizeEvent } from "./normalize-event";
import type { NormalizedEvent } from "./types";
import { MAX_UA_CHARS, parseUserAgent } from "./user-agent";

const UA = {
  chrome: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefox: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0",
  safariIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  edge: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  android: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};

function normalized(raw: Record<string, unknown>): NormalizedEvent {
  const result = normalizeEvent(raw, { receivedAt: new Date("2026-11-22T12:00:00Z") });
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}

const browserEvent = (ua: string, extra: Record<string, unknown> = {}) =>
  normalized({
    platform: "javascript",
    message: "boom",
    request: { url: "https://shop.example/cart", headers: { "User-Agent": ua } },
    ...extra,
  });

describe("parseUserAgent", () => {
  it.each([
    ["Chrome on Windows", UA.chrome, { browser: { name: "Chrome", version: "131.0.0.0" }, os: { name: "Windows", version: "10" } }],
    ["Firefox on macOS", UA.firefox, { browser: { name: "Firefox", version: "133.0" }, os: { name: "Mac OS", version: "10.15" } }],
    ["Edge, not the Chrome it also names", UA.edge, { browser: { name: "Edge", version: "131.0.2903.86" }, os: { name: "Windows" } }],
    [
      "Safari on an iPhone",
      UA.safariIos,
      {
        browser: { name: "Mobile Safari", version: "17.6" },
        os: { name: "iOS", version: "17.6.1" },
        device: { family: "iPhone", model: "iPhone", brand: "Apple", device_type: "mobile" },
      },
    ],
    [
      "Chrome on a Samsung phone",
      UA.android,
      {
        browser: { name: "Chrome" },
        os: { name: "Android", version: "14" },
        device: { model: "SM-S918B", brand: "Samsung", device_type: "mobile" },
      },
    ],
  ])("reads the browser, OS and device of %s", (_, ua, expected) => {
    expect(parseUserAgent(ua)).toMatchObject(expected);
  });

  it("gives a desktop browser no device context", () => {
    expect(parseUserAgent(UA.chrome).device).toBeUndefined();
  });

  it.each([
    ["a crawler", UA.googlebot],
    ["garbage", "\u0000\u0001 ))) ((( ;;; <script>"],
    ["an HTTP library", "python-requests/2.31.0"],
  ])("recognises nothing in %s", (_, ua) => {
    expect(parseUserAgent(ua)).toEqual({});
  });

  it("parses only the first 512 characters of a 100 KB user agent", () => {
    const huge = UA.chrome + " (".repeat(50_000);
    const parsed = parseUserAgent(huge);
    // The same object, from the cache: the cut came before the parse and is what the cache keys
    // on, so the parser's patterns never saw the other 99.5 KB.
    expect(parseUserAgent(huge.slice(0, MAX_UA_CHARS))).toBe(parsed);
    expect(parseUserAgent(huge.slice(0, MAX_UA_CHARS + 1))).toBe(parsed);
    expect(parsed.browser).toMatchObject({ name: "Chrome" });
  });

  it("answers a repeated user agent with the same result", () => {
    expect(parseUserAgent(UA.firefox)).toBe(parseUserAgent(UA.firefox));
  });
});

describe("normalizeEvent with a User-Agent header", () => {
  it("adds browser, OS and device contexts to a browser event, and the tags Sentry derives from them", () => {
    const event = browserEvent(UA.safariIos);
    expect(event.contexts).toMatchObject({
      browser: { name: "Mobile Safari", version: "17.6" },
      os: { name: "iOS", version: "17.6.1" },
      device: { model: "iPhone", brand: "Apple" },
    });
    expect(eventTags(event)).toEqual(
      expect.arrayContaining([
        ["browser.name", "Mobile Safari"],
        ["browser", "Mobile Safari 17"],
        ["os.name", "iOS"],
        ["os", "iOS 17.6.1"],
        ["device", "iPhone"],
        ["device.family", "iPhone"],
      ]),
    );
  });

  it("keeps the contexts the SDK sent and fills in only the missing ones", () => {
    const event = browserEvent(UA.chrome, { contexts: { browser: { name: "MyWebView", version: "3" }, device: { model: "Kiosk 2" } } });
    expect(event.contexts?.browser).toEqual({ name: "MyWebView", version: "3" });
    expect(event.contexts?.device).toEqual({ model: "Kiosk 2" });
    expect(event.contexts?.os).toEqual({ name: "Windows", version: "10" });
  });

  it("puts a server event's client OS in client_os, leaving the server's own os alone", () => {
    const event = normalized({
      platform: "python",
      message: "boom",
      contexts: { os: { name: "Linux", version: "6.8" } },
      request: { url: "https://api.example/orders", headers: [["user-agent", UA.firefox]] },
    });
    expect(event.contexts).toMatchObject({
      os: { name: "Linux", version: "6.8" },
      client_os: { name: "Mac OS" },
      browser: { name: "Firefox" },
    });
    expect(eventTags(event)).toEqual(
      expect.arrayContaining([
        ["os.name", "Linux"],
        ["client_os.name", "Mac OS"],
        ["browser.name", "Firefox"],
      ]),
    );
  });

  it("adds nothing for a user agent it does not recognise or an event without one", () => {
    expect(browserEvent(UA.googlebot).contexts).toBeUndefined();
    expect(normalized({ platform: "javascript", message: "boom" }).contexts).toBeUndefined();
  });

  it("gives each event its own context objects", () => {
    const a = browserEvent(UA.edge);
    const b = browserEvent(UA.edge);
    expect(a.contexts?.browser).toEqual(b.contexts?.browser);
    expect(a.contexts?.browser).not.toBe(b.contexts?.browser);
  });
});
