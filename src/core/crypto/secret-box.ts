import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PLAIN = "plain:";
const SEALED = "v1:";
/** What single sign-on sealed before it used this box: read, never written. */
const SSO_SEALED = "v1.";

/** TELLTALE_SECRET_KEY must hold at least this many characters (README, Settings). */
export const MIN_SECRET_KEY_LENGTH = 32;

/**
 * What a value is sealed for: each purpose has its own key, so a value sealed for one use does
 * not open as another (a client secret is no sign-in cookie).
 */
export type SecretPurpose = "totp" | "sso-client-secret" | "sso-sign-in";

/**
 * The purposes a value may be stored plain for when no key is set. Single sign-on is off
 * without a key, and its cookie comes from the browser: a `plain:` cookie must never open.
 */
const PLAIN_ALLOWED: ReadonlySet<SecretPurpose> = new Set(["totp"]);

/**
 * Seals secrets Telltale must read back (a TOTP secret, needed to compute codes; an OpenID client
 * secret; the single sign-on cookie) with AES-256-GCM (NIST SP 800-38D: a fresh 96-bit IV per
 * value, a 128-bit tag that refuses any change) under a key derived from TELLTALE_SECRET_KEY by
 * HKDF-SHA256 (RFC 5869), one key per purpose. Sealed values are `v1:<iv>:<tag>:<ciphertext>`,
 * base64url. Without a key, TOTP secrets are stored as `plain:…` (README, "Security"); a plain
 * value still opens after a key is set, so setting one later needs no migration. Client secrets
 * and cookies sealed by single sign-on's former box (`v1.<iv>.<tag>.<ciphertext>`, another key
 * derivation) still open, so stored providers keep working.
 */
export class SecretBox {
  private readonly master: Buffer | null;

  constructor(secretKey: string | null) {
    if (secretKey && secretKey.length < MIN_SECRET_KEY_LENGTH) throw new Error("the secret key is too short");
    this.master = secretKey ? Buffer.from(secretKey, "utf8") : null;
  }

  /** Whether values are sealed (TELLTALE_SECRET_KEY is set) or, where allowed, stored plain. */
  get sealing(): boolean {
    return this.master !== null;
  }

  /** Throws without a key for a purpose that is never stored plain: check `sealing` first. */
  seal(plain: string, purpose: SecretPurpose): string {
    if (!this.master) {
      if (PLAIN_ALLOWED.has(purpose)) return PLAIN + plain;
      throw new Error(`sealing a secret for ${purpose} needs TELLTALE_SECRET_KEY`);
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", boxKey(this.master, purpose), iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return SEALED + [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(":");
  }

  /** The value `seal` was given; throws when it was sealed under another key or purpose, or changed since. */
  open(stored: string, purpose: SecretPurpose): string {
    if (stored.startsWith(PLAIN) && PLAIN_ALLOWED.has(purpose)) return stored.slice(PLAIN.length);
    const format = stored.startsWith(SEALED) ? SEALED : stored.startsWith(SSO_SEALED) ? SSO_SEALED : null;
    if (!format) throw new Error("a stored secret is in no known format");
    if (!this.master) throw new Error("a stored secret is sealed, and TELLTALE_SECRET_KEY is not set");
    const parts = stored.slice(format.length).split(format === SEALED ? ":" : ".");
    const [iv, tag, body] = parts.map((part) => Buffer.from(part, "base64url"));
    if (parts.length !== 3 || !iv || !tag || !body) throw new Error("a sealed secret is truncated");
    const key = format === SEALED ? boxKey(this.master, purpose) : ssoKey(this.master, purpose);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("a sealed secret does not open: TELLTALE_SECRET_KEY changed since it was sealed, or the value did");
    }
  }

  /** As `open`, but null for anything that does not open: for values a browser sends back. */
  tryOpen(stored: string, purpose: SecretPurpose): string | null {
    try {
      return this.open(stored, purpose);
    } catch {
      return null;
    }
  }
}

function boxKey(master: Buffer, purpose: SecretPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", master, "telltale secret box", purpose, 32));
}

/** The key single sign-on's former box derived, to read what it sealed. */
function ssoKey(master: Buffer, purpose: SecretPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", master, "telltale", `telltale ${purpose} v1`, 32));
}
