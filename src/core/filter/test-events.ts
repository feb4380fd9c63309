/**
 * Test fixtures: events shaped as @sentry/browser 11.1 sends them (GlobalHandlers,
 * HttpContext and LinkedErrors integrations), and user agents of real browsers.
 * Used by the `*.test.ts` files beside it only.
 */
import { DEFAULT_INBOUND_FILTER_CONFIG } from "./config";
import { type FilterableEvent, type InboundFilterConfig } from "./types";

export const PAGE_URL = "https://shop.example.com/checkout?step=2";
export const APP_SCRIPT = "https://shop.example.com/_next/static/chunks/app/checkout/page-3f2a1c.js";
export const CDN_SCRIPT = "https://cdn.vendor-widgets.net/widget.min.js";

export const UA = {
  chrome120: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  chrome62: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/62.0.3202.94 Safari/537.36",
  chrome63: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/63.0.3239.132 Safari/537.36",
  headlessChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  firefox66: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:66.0) Gecko/20100101 Firefox/66.0",
  firefox115: "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0",
  safari11: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/11.1.2 Safari/605.1.15",
  safari17: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
  iosSafari11:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 11_0 like Mac OS X) AppleWebKit/604.1.38 (KHTML, like Gecko) Version/11.0 Mobile/15A372 Safari/604.1",
  iosSafari16:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  ie8: "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)",
  ie10: "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)",
  ie11: "Mozilla/5.0 (Windows NT 6.3; Trident/7.0; rv:11.0) like Gecko",
  ieMobile10: "Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Lumia 520)",
  edge18:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582",
  edge120:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
  opera12: "Opera/9.80 (X11; Linux i686; Ubuntu/14.10) Presto/2.12.388 Version/12.16",
  opera50:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/63.0.3239.132 Safari/537.36 OPR/50.0.2762.67",
  opera106: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0",
  operaMini7: "Opera/9.80 (J2ME/MIDP; Opera Mini/7.0.32796/59.323; U; fr) Presto/2.12.423 Version/12.16",
  android2:
    "Mozilla/5.0 (Linux; U; Android 2.3.5; en-us; HTC Vision Build/GRI40) AppleWebKit/533.1 (KHTML, like Gecko) Version/4.0 Mobile Safari/533.1",
  android4: "Mozilla/5.0 (Linux; U; Android 4.1.1; en-gb; Build/KLP) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Safari/534.30",
  samsung23:
    "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  googlebotSmartphone:
    "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  slurp: "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)",
  duckduckbot: "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
  baiduspider: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
  yandexbot: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  twitterbot: "Twitterbot/1.0",
  ahrefs: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  semrush: "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
  pingdom: "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)",
  uptimeRobot: "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
  slackDesktop:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.36.140 Chrome/120.0.6099.291 Electron/28.2.5 Safari/537.36 Sonic Slack_SSB/4.36.140",
  cubotPhone: "Mozilla/5.0 (Linux; Android 9; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
} as const;

interface BrowserErrorOptions {
  type?: string;
  value?: string;
  frames?: { filename: string; function?: string; lineno: number; colno: number }[];
  userAgent?: string;
  url?: string;
  release?: string;
}

/** An uncaught error as @sentry/browser 11 reports it from `window.onerror`. */
export function browserError(options: BrowserErrorOptions = {}): FilterableEvent {
  const frames = options.frames ?? [
    { filename: APP_SCRIPT, function: "CheckoutPage.onSubmit", lineno: 1, colno: 48213 },
    { filename: APP_SCRIPT, function: "validateCart", lineno: 1, colno: 51877 },
  ];
  const event = {
    event_id: "3c5b2f0e8f1d4b6aa2b4c6d8e0f1a2b3",
    timestamp: 1763800000.512,
    platform: "javascript",
    level: "error",
    environment: "production",
    release: options.release ?? "shop-web@2.14.0",
    sdk: {
      name: "sentry.javascript.browser",
      version: "11.1.0",
      integrations: [
        "InboundFilters",
        "FunctionToString",
        "BrowserApiErrors",
        "Breadcrumbs",
        "GlobalHandlers",
        "LinkedErrors",
        "Dedupe",
        "HttpContext",
      ],
      packages: [{ name: "npm:@sentry/browser", version: "11.1.0" }],
    },
    exception: {
      values: [
        {
          type: options.type ?? "TypeError",
          value: options.value ?? "Cannot read properties of undefined (reading 'total')",
          stacktrace: { frames: frames.map((f) => ({ ...f, in_app: true })) },
          mechanism: { type: "auto.browser.global_handlers.onerror", handled: false },
        },
      ],
    },
    request: {
      url: options.url ?? PAGE_URL,
      headers: { Referer: "https://shop.example.com/cart", "User-Agent": options.userAgent ?? UA.chrome120 },
    },
    contexts: { trace: { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", span_id: "00f067aa0ba902b7" } },
    tags: {},
    breadcrumbs: [],
  };
  return event;
}

/**
 * A muted cross-origin error: `window.onerror` gets only "Script error." and no error
 * object, so the SDK sends it as a message with one synthetic frame at line 0 on the
 * page URL (@sentry/browser `_enhanceEventWithInitialFrame`).
 */
export function mutedScriptError(message = "Script error."): FilterableEvent {
  return {
    platform: "javascript",
    level: "error",
    message,
    exception: { values: [{ stacktrace: { frames: [{ filename: PAGE_URL, function: "?", lineno: 0, colno: 0 }] } }] },
    request: { url: PAGE_URL, headers: { "User-Agent": UA.chrome120 } },
  };
}

/** `Sentry.captureMessage(text)` from the browser. */
export function browserMessage(message: string, userAgent: string = UA.chrome120): FilterableEvent {
  return { platform: "javascript", level: "info", message, request: { url: PAGE_URL, headers: { "User-Agent": userAgent } } };
}

/** Every switch off and every list empty. */
export const ALL_OFF: InboundFilterConfig = {
  scriptError: false,
  resizeObserver: false,
  browserExtensions: false,
  localhost: false,
  webCrawlers: false,
  legacyBrowsers: false,
  legacyBrowserRules: [],
  errorMessages: [],
  releases: [],
};

/** The defaults with `overrides` on top. */
export function config(overrides: Partial<InboundFilterConfig> = {}): InboundFilterConfig {
  return { ...DEFAULT_INBOUND_FILTER_CONFIG, ...overrides };
}
