import { randomBytes } from "node:crypto";

/**
 * Response headers that keep pages from being framed, sniffed or made to run injected
 * script. One place decides them for every response the front sends; see README "Security".
 */

/** Every response, pages, web API and ingest alike: never guess a type from the bytes. */
export const NOSNIFF = { "x-content-type-options": "nosniff" } as const;

/** A fresh nonce for one page response (128 random bits, as CSP Level 3 advises). */
export const newNonce = () => randomBytes(16).toString("base64");

/**
 * The page policy. Scripts run only with this response's nonce: Next.js reads the nonce
 * from the request's `Content-Security-Policy` header and puts it on its own scripts
 * (https://nextjs.org/docs/app/guides/content-security-policy), and `'strict-dynamic'`
 * lets those load the chunks they import. No `'unsafe-inline'` or `'unsafe-eval'`: the
 * server runs Next.js in production mode only. Style attributes (`style={…}` in React) need
 * `style-src-attr 'unsafe-inline'`: nonces cannot cover attributes, and an attribute cannot
 * run script. `connect-src 'self'` covers server actions and the browser SDK's tunnel, which
 * is a path on this origin.
 */
export function contentSecurityPolicy(nonce: string, https: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * What every page and web API response carries besides its CSP. `X-Frame-Options` repeats
 * `frame-ancestors` for browsers without CSP Level 2
 * (https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/X-Frame-Options).
 * HSTS only when the public URL is https: a browser ignores it over http, and an operator
 * trying Telltale on http must not be locked out of it.
 */
export function uiHeaders(https: boolean): Record<string, string> {
  return {
    ...NOSNIFF,
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    ...(https ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/**
 * The upstream's raw header list with ours in place of any header of the same name, so
 * nothing the worker sends can loosen them.
 */
export function withHeaders(raw: string[], ours: Record<string, string>): string[] {
  const names = new Set(Object.keys(ours));
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? "";
    if (!names.has(name.toLowerCase())) kept.push(name, raw[i + 1] ?? "");
  }
  for (const [name, value] of Object.entries(ours)) kept.push(name, value);
  return kept;
}
