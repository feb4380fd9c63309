/** Set-up snippets with a project's DSN filled in, one per SDK the settings page offers. */
export interface Snippet {
  /** Path below `/setup/` (a catch-all segment: `javascript/nextjs` has two parts). */
  path: string;
  title: string;
  install: string;
  files: { name: string; code: string }[];
}

const q = (s: string) => JSON.stringify(s);

export function snippets(dsn: string): Snippet[] {
  return [
    {
      path: "javascript",
      title: "Browser JavaScript",
      install: "npm install @sentry/browser",
      files: [
        {
          name: "main.js",
          code: `import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: ${q(dsn)},
  integrations: [Sentry.browserTracingIntegration()],
  tracesSampleRate: 1.0,
});`,
        },
      ],
    },
    {
      path: "javascript/nextjs",
      title: "Next.js",
      install: "npm install @sentry/nextjs",
      files: [
        {
          name: "instrumentation-client.ts",
          code: `import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: ${q(dsn)},
  // Send browser envelopes through your own origin, e.g. with a route that forwards to this DSN.
  // tunnel: "/monitoring",
  tracesSampleRate: 1.0,
});

export const onRouterTransitionStart = Sentry.captureRouterTransitionStart;`,
        },
        {
          name: "instrumentation.ts",
          code: `import * as Sentry from "@sentry/nextjs";

export function register() {
  Sentry.init({ dsn: ${q(dsn)}, tracesSampleRate: 1.0 });
}

export const onRequestError = Sentry.captureRequestError;`,
        },
      ],
    },
    {
      path: "node",
      title: "Node.js",
      install: "npm install @sentry/node",
      files: [
        {
          name: "instrument.js (import it before anything else)",
          code: `const Sentry = require("@sentry/node");

Sentry.init({
  dsn: ${q(dsn)},
  tracesSampleRate: 1.0,
});`,
        },
      ],
    },
    {
      path: "python",
      title: "Python",
      install: "pip install sentry-sdk",
      files: [
        {
          name: "app.py",
          code: `import sentry_sdk

sentry_sdk.init(
    dsn=${q(dsn)},
    traces_sample_rate=1.0,
)`,
        },
      ],
    },
  ];
}
