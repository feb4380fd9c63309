/**
 * Events sent by crawlers, link-preview fetchers and uptime checkers: they run pages in
 * unusual ways, and the errors they hit are not ones users see. Sentry turns this
 * filter on for every new project.
 *
 * The list is our own, from the user agents these services publish (Google, Bing,
 * Yahoo Slurp, DuckDuckGo, Baidu, Yandex, Facebook, X/Twitter, Slack, Ahrefs, Semrush,
 * Pingdom, UptimeRobot…) plus the generic `…bot/`, `…spider/`, `…crawler` forms Sentry's
 * filter also uses (docs/protocol.md#inbound-filters).
 *
 * Deliberately not matched: `HeadlessChrome`. Headless Chromium is how people test
 * their apps — our own end-to-end tests among them — and an error it reports is usually
 * a real one. Also not matched: `Slack/` alone (the Slack desktop app), and the `CUBOT`
 * phone brand the generic `bot` rule would otherwise catch.
 */
import { browserContext, userAgent } from "./read";
import { type FilterableEvent, type FilterReason, type InboundFilterConfig } from "./types";

/** Literal user-agent fragments of known crawlers, matched case-insensitively. */
export const CRAWLER_USER_AGENT_TOKENS: readonly string[] = [
  "Googlebot",
  "Mediapartners-Google",
  "AdsBot-Google",
  "FeedFetcher-Google",
  "Google-InspectionTool",
  "Storebot-Google",
  "bingbot",
  "BingPreview",
  "Slurp",
  "DuckDuckBot",
  "DuckDuckGo-Favicons-Bot",
  "Baiduspider",
  "YandexBot",
  "YandexMobileBot",
  "Sogou",
  "Exabot",
  "facebookexternalhit",
  "facebookcatalog",
  "Facebot",
  "Twitterbot",
  "LinkedInBot",
  "Slackbot",
  "Slack-ImgProxy",
  "Discordbot",
  "TelegramBot",
  "Applebot",
  "ia_archiver",
  "archive.org_bot",
  "AhrefsBot",
  "SemrushBot",
  "MJ12bot",
  "DotBot",
  "PetalBot",
  "Bytespider",
  "GPTBot",
  "CCBot",
  "ClaudeBot",
  "Pingdom",
  "UptimeRobot",
  "Better Uptime",
  "StatusCake",
  "Site24x7",
  "HubSpot Crawler",
  "lyticsbot",
  "AWS Security Scanner",
  "Calypso AppCrawler",
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One case-insensitive alternation of literals, then the generic forms: `bot` or `bots`
 * and `spider` followed by `/`, a space, `;` or `)`, and the word `crawler`. Literal
 * alternatives and single-character classes keep matching linear.
 */
const CRAWLER = new RegExp(`${CRAWLER_USER_AGENT_TOKENS.map(escape).join("|")}|(?<!cu)bots?[/\\s;)]|spider[/\\s;)]|crawler`, "i");

/** Whether a user agent (or a browser name) belongs to a known crawler. */
export function isCrawlerUserAgent(ua: string): boolean {
  return CRAWLER.test(ua);
}

export function shouldFilter(event: FilterableEvent, cfg: InboundFilterConfig): FilterReason | null {
  if (!cfg.webCrawlers) return null;
  // Without the header, Relay-normalized events still name the crawler as the browser.
  const ua = userAgent(event) ?? browserContext(event).name;
  return ua !== undefined && isCrawlerUserAgent(ua) ? "web-crawlers" : null;
}
