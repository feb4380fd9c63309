import type { NextConfig } from "next";
import { withSentryConfig } from "@sentry/nextjs/config";

const config: NextConfig = {
  // SDKs post to `/api/1/envelope/` with the slash; a 308 would lose them (the Node transport
  // does not follow redirects). The ingest front answers them before Next, but keep Next neutral too.
  skipTrailingSlashRedirect: true,
  // PRODUCT.md fact 10: the router-cache defaults the specification records.
  experimental: { staleTimes: { dynamic: 30, static: 300 } },
  serverExternalPackages: ["better-sqlite3", "pg", "kysely", "nodemailer", "zstd-napi"],
  // `npm run typecheck` checks the whole tree (app and core) with one configuration.
  typescript: { ignoreBuildErrors: true },
  poweredByHeader: false,
  // Maps of the browser chunks, for symbolicating Telltale's own browser errors (docs/decisions/0015-own-source-maps.md).
  productionBrowserSourceMaps: true,
};

// Offline builds: no telemetry (https://nextjs.org/telemetry), no source-map upload (@sentry/nextjs build options).
export default withSentryConfig(config, { telemetry: false, silent: true, sourcemaps: { disable: true } });
