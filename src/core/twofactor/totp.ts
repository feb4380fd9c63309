import { generate, generateSecret, generateURI, verify } from "otplib";

/**
 * TOTP as authenticator apps speak it (RFC 6238: SHA-1, 6 digits, 30-second steps; the
 * `otpauth://` URI of https://github.com/google/google-authenticator/wiki/Key-Uri-Format),
 * through otplib. A code is accepted one step either side of now, for clocks a little off
 * and codes typed at a step's end; the caller refuses a step already used (replay).
 */
export const TOTP_PERIOD_SECONDS = 30;
/** 20 random bytes (160 bits, RFC 4226's recommended length), 32 base32 characters. */
export const TOTP_SECRET = /^[A-Z2-7]{32}$/;
const CODE = /^\d{6}$/;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The URI an authenticator app reads from the QR code; `account` is the user's email. */
export function totpUri(secret: string, account: string, publicUrl: string): string {
  // The issuer is shown by the app beside the code; the host tells two Telltale servers apart.
  // (A colon would split the label's issuer prefix, so the port is left out.)
  return generateURI({ issuer: `Telltale (${new URL(publicUrl).hostname})`, label: account, secret });
}

export function isTotpCode(text: string): boolean {
  return CODE.test(text);
}

/** The time step whose code `code` is, when it is within one step of `nowMs` and after `afterStep`; else null. */
export async function totpStep(secret: string, code: string, nowMs: number, afterStep: number | null): Promise<number | null> {
  if (!CODE.test(code)) return null;
  const epoch = Math.floor(nowMs / 1000);
  try {
    const result = await verify({
      secret,
      token: code,
      epoch,
      period: TOTP_PERIOD_SECONDS,
      epochTolerance: TOTP_PERIOD_SECONDS,
      ...(afterStep !== null && afterStep >= 0 ? { afterTimeStep: Math.min(afterStep, Math.floor(epoch / TOTP_PERIOD_SECONDS) + 1) } : {}),
    });
    return result.valid && "timeStep" in result ? result.timeStep : null;
  } catch {
    // otplib throws on inputs it will not check (a step in the far future): a wrong code.
    return null;
  }
}

/** The code of `nowMs`, as an authenticator app shows it (tests, and nothing else, need it). */
export function totpCodeAt(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000), period: TOTP_PERIOD_SECONDS });
}
