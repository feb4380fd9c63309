/**
 * Just enough user-agent parsing for the legacy-browser filter: the browser family and
 * its major version, for the families Sentry's filter knows. Not a general parser —
 * anything else is `null` and never filtered.
 *
 * Order matters because browsers borrow each other's tokens: Opera and Edge carry
 * `Chrome/`, Chrome carries `Safari/`, old IE 11 hides behind `Trident/… rv:11`.
 * Every regex is a literal token followed by digits, so matching stays linear.
 * Chromium-based browsers not listed (Samsung Internet, Yandex, Vivaldi, headless
 * Chromium) are read as Chrome at their engine version: legacy means an old engine.
 */
import { type BrowserFamily } from "./types";

export interface ParsedBrowser {
  family: BrowserFamily;
  major: number;
}

const MAX_MAJOR_DIGITS = 6;

function major(ua: string, re: RegExp): number | undefined {
  const m = re.exec(ua);
  const digits = m?.[1];
  return digits === undefined ? undefined : Number.parseInt(digits.slice(0, MAX_MAJOR_DIGITS), 10);
}

const RULES: readonly { family: BrowserFamily; version: (ua: string) => number | undefined }[] = [
  { family: "opera_mini", version: (ua) => major(ua, /Opera Mini\/(\d+)/i) },
  // Chromium Opera says OPR/ (OPT/ on iOS); Presto Opera says Opera/9.80 … Version/12.16.
  { family: "opera", version: (ua) => major(ua, /\bOP[RT]\/(\d+)/) },
  {
    family: "opera",
    version: (ua) => (/\bOpera[/ ]\d/.test(ua) ? (major(ua, /\bVersion\/(\d+)/) ?? major(ua, /\bOpera[/ ](\d+)/)) : undefined),
  },
  { family: "ie", version: (ua) => major(ua, /\bMSIE (\d+)/) ?? major(ua, /\bIEMobile\/(\d+)/) },
  { family: "ie", version: (ua) => (/\bTrident\/\d/.test(ua) ? major(ua, /\brv:(\d+)/) : undefined) },
  // EdgeHTML (12–18) says Edge/; Chromium Edge says Edg/, EdgA/ (Android), EdgiOS/.
  { family: "edge", version: (ua) => major(ua, /\bEdge\/(\d+)/) ?? major(ua, /\bEdg(?:A|iOS)?\/(\d+)/) },
  { family: "firefox", version: (ua) => major(ua, /\b(?:Firefox|FxiOS)\/(\d+)/) },
  { family: "chrome", version: (ua) => major(ua, /(?:Chrome|Chromium|CriOS)\/(\d+)/) },
  // The stock Android browser (no Chrome token) is versioned by the Android release.
  { family: "android", version: (ua) => (/\bVersion\/\d/.test(ua) ? major(ua, /\bAndroid (\d+)/) : undefined) },
  { family: "safari", version: (ua) => (/\bSafari\//.test(ua) ? major(ua, /\bVersion\/(\d+)/) : undefined) },
];

/** The browser family and major version of a user agent, or null when it is none we know. */
export function parseUserAgent(ua: string): ParsedBrowser | null {
  for (const rule of RULES) {
    const version = rule.version(ua);
    if (version !== undefined && Number.isFinite(version)) return { family: rule.family, major: version };
  }
  return null;
}

/**
 * Names found in `contexts.browser.name` (ua-parser families, as Relay writes them) for
 * the families we know, lower-cased.
 */
const CONTEXT_NAMES: Readonly<Record<string, BrowserFamily>> = {
  ie: "ie",
  "ie mobile": "ie",
  "internet explorer": "ie",
  edge: "edge",
  "edge mobile": "edge",
  safari: "safari",
  "mobile safari": "safari",
  firefox: "firefox",
  "firefox mobile": "firefox",
  "firefox ios": "firefox",
  chrome: "chrome",
  "chrome mobile": "chrome",
  "chrome mobile ios": "chrome",
  "chrome mobile webview": "chrome",
  chromium: "chrome",
  headlesschrome: "chrome",
  opera: "opera",
  "opera mobile": "opera",
  "opera mini": "opera_mini",
  android: "android",
};

/** The family and major version from `contexts.browser`, or null. */
export function parseBrowserContext(name: string | undefined, version: string | undefined): ParsedBrowser | null {
  if (name === undefined || version === undefined) return null;
  const key = name.trim().toLowerCase();
  const family = Object.hasOwn(CONTEXT_NAMES, key) ? CONTEXT_NAMES[key] : undefined;
  const digits = /^\s*(\d+)/.exec(version)?.[1];
  if (family === undefined || digits === undefined) return null;
  return { family, major: Number.parseInt(digits.slice(0, MAX_MAJOR_DIGITS), 10) };
}
