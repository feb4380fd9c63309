import * as Sentry from "@sentry/nextjs";
import { IGNORE_ERRORS } from "./app/lib/sentry-shared";

/**
 * The browser SDK. Its DSN and tunnel are known only at run time (keys live in the
 * database), so the root layout renders them into a meta tag; envelopes always go to a
 * path on this origin (PRODUCT.md fact 2).
 */
interface BrowserConfig {
  dsn: string;
  tunnel: string;
  tracesSampleRate: number;
}

function readConfig(): BrowserConfig | null {
  const content = document.querySelector('meta[name="telltale-sentry"]')?.getAttribute("content");
  if (!content) return null;
  try {
    return JSON.parse(content) as BrowserConfig;
  } catch {
    return null;
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const config = readConfig();
if (config) {
  Sentry.init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    tracesSampleRate: config.tracesSampleRate,
    integrations: [Sentry.browserTracingIntegration()],
    // Trace headers go to this origin only (PRODUCT.md fact 7): relative URLs and this exact origin.
    tracePropagationTargets: [/^\/(?!\/)/, new RegExp(`^${escapeRegExp(window.location.origin)}(?:/|$)`)],
    ignoreErrors: IGNORE_ERRORS,
  });
}

export const onRouterTransitionStart = Sentry.captureRouterTransitionStart;
