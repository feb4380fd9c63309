import { createHash, randomBytes } from "node:crypto";

/** How long a password-reset link works: an hour, as is usual for links sent by email. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Reset requests one client address (IPv6: per /64) may make within the sign-in window. */
export const RESET_MAX_PER_ADDRESS = 5;
/** Reset requests for one email address within the sign-in window, so nobody floods an inbox. */
export const RESET_MAX_PER_ACCOUNT = 3;

/** 32 random bytes, base64url: what the link carries. Only its hash is stored. */
export function newResetToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashResetToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A token of any other shape is no token of ours, and is not looked up. */
export function isResetTokenShape(token: string): boolean {
  return /^[\w-]{43}$/.test(token);
}

export function resetTokenExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt;
}
