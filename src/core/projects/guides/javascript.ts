import { envelopeUrl, parseDsn } from "../../auth/dsn";
import type { Snippet } from "./snippet";

const q = (s: string) => JSON.stringify(s);

/** Where a Next.js app's tunnel route forwards the browser's envelopes. */
function envelopeTarget(dsn: string): string {
  const parsed = parseDsn(dsn);
  return parsed ? `${envelopeUrl(parsed)}?sentry_key=${parsed.publicKey}` : dsn;
}

export function javascriptGuides(dsn: string): Snippet[] {
  return [
    {
      path: "javascript",
      title: "Browser JavaScript",
      install: "npm install @sentry/browser",
      verified: "run",
      docs: "https://docs.sentry.io/platforms/javascript/",
      files: [
        {
          name: "main.js",
          code: `import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: ${q(dsn)},
  integrations: [Sentry.browserTracingIntegration()],
  tracesSampleRate: 1.0,
});

// A first error to check the set-up; remove it afterwards.
setTimeout(() => {
  throw new Error("My first Telltale error");
});`,
        },
      ],
    },
    {
      path: "javascript/nextjs",
      title: "Next.js",
      install: "npm install @sentry/nextjs",
      verified: "run",
      docs: "https://docs.sentry.io/platforms/javascript/guides/nextjs/manual-setup/",
      files: [
        {
          name: "next.config.ts",
          // @sentry/nextjs 11 exports withSentryConfig from its `config` entry point only.
          code: `import type { NextConfig } from "next";
import { withSentryConfig } from "@sentry/nextjs/config";

const nextConfig: NextConfig = {};

export default withSentryConfig(nextConfig, {
  // Nothing goes to sentry.io at build time: no telemetry, no source map upload.
  telemetry: false,
  sourcemaps: { disable: true },
});`,
        },
        {
          name: "instrumentation-client.ts",
          // `tunnel`, not `tunnelRoute`: withSentryConfig's tunnelRoute only works with the hosted
          // service's DSNs, so a self-hosted DSN needs a route of its own, as described in
          // https://docs.sentry.io/platforms/javascript/troubleshooting/#using-the-tunnel-option
          code: `import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: ${q(dsn)},
  // The browser posts to your own origin (app/monitoring/route.ts below): no CORS, no ad blockers.
  tunnel: "/monitoring",
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
        {
          name: "app/monitoring/route.ts",
          code: `// Forwards the browser SDK's envelopes to Telltale, and nowhere else.
const TARGET = ${q(envelopeTarget(dsn))};

export async function POST(request: Request) {
  const upstream = await fetch(TARGET, { method: "POST", body: await request.arrayBuffer() });
  return new Response(upstream.body, { status: upstream.status });
}`,
        },
      ],
    },
    {
      path: "node",
      title: "Node.js",
      install: "npm install @sentry/node",
      verified: "run",
      docs: "https://docs.sentry.io/platforms/javascript/guides/node/",
      files: [
        {
          name: "instrument.js",
          code: `const Sentry = require("@sentry/node");

Sentry.init({
  dsn: ${q(dsn)},
  tracesSampleRate: 1.0,
});`,
        },
        {
          name: "app.js",
          code: `// Load instrument.js before anything else, so the SDK sees every module.
require("./instrument.js");

// A first error to check the set-up; remove it afterwards.
throw new Error("My first Telltale error");`,
        },
      ],
    },
  ];
}
