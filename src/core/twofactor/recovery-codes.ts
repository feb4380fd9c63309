import { createHash, randomInt } from "node:crypto";

/** Recovery codes handed out when two-factor is turned on, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no 0/o, 1/l: read off paper without doubt
const GROUPS = 4;
const GROUP_LENGTH = 4;

/**
 * 16 characters of a 32-letter alphabet: 80 random bits each, enough that the SHA-256 stored
 * for each cannot be reversed by trying them all (a slow hash would only slow down sign-in).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join("")).join(
      "-",
    ),
  );
}

/** What a person may type for a code, in upper or lower case, with or without dashes and spaces. */
export function normaliseRecoveryCode(text: string): string | null {
  const compact = text.toLowerCase().replace(/[\s-]/g, "");
  return compact.length === GROUPS * GROUP_LENGTH && [...compact].every((c) => ALPHABET.includes(c)) ? compact : null;
}

export function hashRecoveryCode(normalised: string): string {
  return createHash("sha256").update(normalised).digest("hex");
}
