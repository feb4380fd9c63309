import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PLAIN = "plain:";
const SEALED = "v1:";

/**
 * Seals secrets Telltale must read back (a TOTP secret: it is needed to compute codes, so it
 * cannot be hashed) with AES-256-GCM under a key derived from TELLTALE_SECRET_KEY by HKDF-SHA256
 * (RFC 5869), one key per `purpose`, so a value sealed for one use does not open as another.
 * Without a key, values are stored as `plain:…` (README, "Security"); a plain value still opens
 * after a key is set, so setting one later needs no migration. Sealed values are
 * `v1:<iv>:<tag>:<ciphertext>`, base64url.
 */
export class SecretBox {
  private readonly master: Buffer | null;

  constructor(secretKey: string | null) {
    this.master = secretKey ? Buffer.from(secretKey, "utf8") : null;
  }

  /** Whether values are sealed (TELLTALE_SECRET_KEY is set) or stored plain. */
  get sealing(): boolean {
    return this.master !== null;
  }

  seal(plain: string, purpose: string): string {
    if (!this.master) return PLAIN + plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key(purpose), iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return SEALED + [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(":");
  }

  /** The value `seal` was given; throws when it was sealed under another key or changed since. */
  open(stored: string, purpose: string): string {
    if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
    if (!stored.startsWith(SEALED)) throw new Error("a stored secret is in no known format");
    if (!this.master) throw new Error("a stored secret is sealed, and TELLTALE_SECRET_KEY is not set");
    const [iv, tag, body] = stored
      .slice(SEALED.length)
      .split(":")
      .map((part) => Buffer.from(part, "base64url"));
    if (!iv || !tag || !body) throw new Error("a sealed secret is truncated");
    const decipher = createDecipheriv("aes-256-gcm", this.key(purpose), iv);
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("a sealed secret does not open: TELLTALE_SECRET_KEY changed since it was sealed, or the value did");
    }
  }

  private key(purpose: string): Buffer {
    return Buffer.from(hkdfSync("sha256", this.master!, "telltale secret box", purpose, 32));
  }
}
