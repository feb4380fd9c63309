import { randomBytes } from "node:crypto";

/** A DSN key pair: 32 hex characters each, as Sentry issues them. */
export function generateKeyPair(): { publicKey: string; secretKey: string } {
  return { publicKey: randomBytes(16).toString("hex"), secretKey: randomBytes(16).toString("hex") };
}
