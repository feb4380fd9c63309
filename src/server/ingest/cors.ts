import type { ServerResponse } from "node:http";

/** Browser SDKs post from any origin (docs/protocol.md#cors, Relay's CORS layer). */
export const INGEST_CORS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "x-sentry-error, x-sentry-rate-limits, retry-after",
};

export function answerPreflight(res: ServerResponse): void {
  res.writeHead(200, {
    ...INGEST_CORS,
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers":
      "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, content-type, authentication, authorization, content-encoding, transfer-encoding, sentry-trace, baggage",
    "access-control-max-age": "3600",
    "content-length": "0",
  });
  res.end();
}
