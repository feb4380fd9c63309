import type { NextConfig } from "next";

const config: NextConfig = {
  // SDKs post to `/api/1/envelope/` with the slash; a 308 would lose them (the Node transport
  // does not follow redirects). The ingest front answers them before Next, but keep Next neutral too.
  skipTrailingSlashRedirect: true,
  // PRODUCT.md fact 10: the router-cache defaults the specification records.
  experimental: { staleTimes: { dynamic: 30, static: 300 } },
  serverExternalPackages: ["better-sqlite3", "pg", "kysely"],
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` checks the whole tree, app and core
  poweredByHeader: false,
};

export default config;
