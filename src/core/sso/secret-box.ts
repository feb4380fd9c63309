import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Secrets at rest (an OpenID client secret) and in the sign-in cookie, sealed with AES-256-GCM
 * (NIST SP 800-38D): a fresh 96-bit IV per message and a 128-bit tag that refuses any change.
 * The 256-bit key is derived with HKDF-SHA-256 (RFC 5869) from TELLTALE_SECRET_KEY and a
 * purpose, so the same setting gives unrelated keys to unrelated uses. Format:
 * `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export type SecretPurpose = "sso-client-secret" | "sso-sign-in";

/** TELLTALE_SECRET_KEY must hold at least this many characters (README, Settings). */
export const MIN_SECRET_KEY_LENGTH = 32;

function keyFor(secretKey: string, purpose: SecretPurpose): Buffer {
  if (secretKey.length < MIN_SECRET_KEY_LENGTH) throw new Error("the secret key is too short");
  return Buffer.from(hkdfSync("sha256", secretKey, "telltale", `telltale ${purpose} v1`, 32));
}

export function seal(secretKey: string, purpose: SecretPurpose, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secretKey, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The plaintext, or null when the box was made with another key or purpose, or changed. */
export function open(secretKey: string, purpose: SecretPurpose, sealed: string): string | null {
  const [version, iv, tag, body, ...rest] = sealed.split(".");
  if (version !== "v1" || iv === undefined || tag === undefined || body === undefined || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(secretKey, purpose), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
