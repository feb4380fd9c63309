import type { IncomingMessage } from "node:http";

/** The first value of a header that a chain of proxies may have sent as a comma-separated list. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(",")[0]?.trim();
  return first ? first : undefined;
}

/**
 * The base URL the client used to reach the web API, for a URL it must call back (the chunk
 * upload URL). Behind Telltale's own front (src/server/proxy.ts) X-Forwarded-Host and
 * X-Forwarded-Proto are set there and can be believed; without them, the Host header over http.
 * When the host is the public URL's host, the public URL is the answer, so a TLS-terminating
 * proxy that is not trusted still yields `https://` as TELLTALE_URL says.
 */
export function requestBaseUrl(req: IncomingMessage, publicUrl: string): string {
  const host = firstValue(req.headers["x-forwarded-host"]) ?? firstValue(req.headers.host);
  if (!host || !/^[A-Za-z0-9.\-_[\]:]+$/.test(host)) return publicUrl;
  const pub = new URL(publicUrl);
  if (pub.host === host.toLowerCase()) return publicUrl;
  const proto = firstValue(req.headers["x-forwarded-proto"]) === "https" ? "https" : "http";
  return `${proto}://${host}`;
}
