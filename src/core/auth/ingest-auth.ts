import { isPossibleIdentifier } from "../identifiers";
import { parseDsn } from "./dsn";

/**
 * Where an ingest request says who it is: `X-Sentry-Auth`, `Authorization: Sentry …`,
 * `sentry_key` in the query, or the `dsn` of the envelope header (tunnels).
 * (develop.sentry.dev sdk/foundations/transport/authentication; docs/protocol.md#authentication)
 */
export type KeyLookup = { ok: true; publicKey: string; projectId?: string } | { ok: false; reason: string };

export function parseSentryAuthHeader(value: string): Map<string, string> | null {
  const m = /^\s*sentry\s+(.*)$/i.exec(value);
  if (!m?.[1]) return null;
  const out = new Map<string, string>();
  for (const pair of m[1].split(",")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    out.set(pair.slice(0, eq).trim().toLowerCase(), pair.slice(eq + 1).trim());
  }
  return out;
}

export interface AuthSources {
  xSentryAuth?: string | undefined;
  authorization?: string | undefined;
  query: URLSearchParams;
  /** The envelope header's `dsn`, when the body is an envelope that carries one. */
  envelopeDsn?: string | undefined;
}

/** Finds the public key; more than one differing key is refused as Relay does. */
export function findPublicKey(sources: AuthSources): KeyLookup {
  const keys: { key: string; projectId?: string }[] = [];
  if (sources.xSentryAuth !== undefined) {
    const fields = parseSentryAuthHeader(sources.xSentryAuth);
    const key = fields?.get("sentry_key");
    if (!key) return { ok: false, reason: "bad x-sentry-auth header" };
    keys.push({ key });
  }
  if (sources.authorization !== undefined && /^\s*sentry\s/i.test(sources.authorization)) {
    const key = parseSentryAuthHeader(sources.authorization)?.get("sentry_key");
    if (!key) return { ok: false, reason: "bad authorization header" };
    keys.push({ key });
  }
  const queryKey = sources.query.get("sentry_key");
  if (queryKey) keys.push({ key: queryKey });
  if (sources.envelopeDsn !== undefined) {
    const dsn = parseDsn(sources.envelopeDsn);
    if (!dsn) return { ok: false, reason: "bad envelope authentication header" };
    keys.push({ key: dsn.publicKey, projectId: dsn.projectId });
  }
  if (keys.length === 0) return { ok: false, reason: "missing authorization information" };
  // A key no row can hold (a NUL, past any key's length) is unknown without asking the database.
  if (keys.some((k) => !isPossibleIdentifier(k.key))) return { ok: false, reason: "unknown public key" };
  const first = keys[0]!;
  if (keys.some((k) => k.key !== first.key)) return { ok: false, reason: "multiple authorization payloads detected" };
  const projectId = keys.find((k) => k.projectId)?.projectId;
  return { ok: true, publicKey: first.key, ...(projectId ? { projectId } : {}) };
}
