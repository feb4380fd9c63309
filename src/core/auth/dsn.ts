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
