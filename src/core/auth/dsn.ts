/**
 * DSN: `{PROTOCOL}://{PUBLIC_KEY}[:{SECRET_KEY}]@{HOST}{PATH}/{PROJECT_ID}`
 * (develop.sentry.dev, sdk/foundations/transport/authentication).
 */
export interface Dsn {
  protocol: "http" | "https";
  publicKey: string;
  secretKey?: string;
  host: string; // host[:port]
  path: string; // "" or "/prefix"
  projectId: string;
}

export function buildDsn(baseUrl: string, publicKey: string, projectId: number | string, secretKey?: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, "");
  const auth = secretKey ? `${publicKey}:${secretKey}` : publicKey;
  return `${url.protocol}//${auth}@${url.host}${path}/${projectId}`;
}

/** Parses a DSN the way the JS SDK does; null when it is not one. */
export function parseDsn(dsn: string): Dsn | null {
  const m = /^(https?):\/\/(\w+)(?::(\w+))?@((?:\[[:.%\w]+\]|[\w.-]+)(?::\d+)?)(\/.*)?\/(\d+)\/?$/.exec(dsn.trim());
  if (!m) return null;
  const [, protocol, publicKey, secretKey, host, path, projectId] = m;
  if (!protocol || !publicKey || !host || !projectId) return null;
  return {
    protocol: protocol as Dsn["protocol"],
    publicKey,
    ...(secretKey ? { secretKey } : {}),
    host,
    path: path ?? "",
    projectId,
  };
}

/** The envelope endpoint a DSN's SDK posts to. */
export function envelopeUrl(dsn: Dsn): string {
  return `${dsn.protocol}://${dsn.host}${dsn.path}/api/${dsn.projectId}/envelope/`;
}

/**
 * Whether links in emails and DSNs would point at this machine: `TELLTALE_URL` left at its default
 * (`http://localhost:PORT`) or set to a loopback address, which no reader's mail client reaches.
 */
export function linksPointAtLocalhost(publicUrl: string): boolean {
  let host: string;
  try {
    host = new URL(publicUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || host === "0.0.0.0" || /^127\./.test(host);
}

/**
 * The address the browser reached Telltale at, when DSNs name this machine (`TELLTALE_URL` unset
 * or loopback) but the browser came from elsewhere: an SDK on the browser's machine would send
 * to its own localhost, and nothing would arrive. Null when the DSN host is not loopback, when the
 * browser is on loopback too, or when `requestHost` (the Host header) is not a host[:port].
 */
export function unreachableDsnHost(publicUrl: string, requestHost: string | null | undefined): string | null {
  if (!requestHost || !HOST_HEADER.test(requestHost) || !linksPointAtLocalhost(publicUrl)) return null;
  return linksPointAtLocalhost(`http://${requestHost}`) ? null : requestHost.toLowerCase();
}

/** A Host header's host[:port]: a name or IPv4 address, or an IPv6 address in brackets. */
const HOST_HEADER = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;
