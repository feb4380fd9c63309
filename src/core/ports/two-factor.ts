/**
 * What two-factor sign-in (decision 0023) needs from storage. Implemented
 * over the main database in src/db/two-factor-store.ts; core says what, src/db says how.
 */
import type { NewSessionRow } from "./accounts";

export interface TotpRow {
  /** As stored: `plain:…` or sealed (src/core/crypto/secret-box.ts). */
  secret: string;
  lastStep: number | null;
  createdAt: number;
}

export interface ChallengeRow {
  userId: number;
  expiresAt: number;
}

export interface TwoFactorStore {
  totp(userId: number): Promise<TotpRow | null>;
  /**
   * Turns two-factor on in one transaction: stores the secret (with the step of the code that
   * confirmed it) and replaces every recovery code. False when it was already on (two tabs
   * confirming at once): nothing changes then.
   */
  enable(userId: number, secret: string, step: number, recoveryHashes: readonly string[], now: number): Promise<boolean>;
  /** Turns it off: the secret and every recovery code go. */
  disable(userId: number): Promise<void>;
  /** Replaces every recovery code of a user who has two-factor on. */
  replaceRecoveryCodes(userId: number, recoveryHashes: readonly string[], now: number): Promise<void>;
  /**
   * Records that a code of `step` was accepted, atomically: true only when no code of this step
   * or a later one was accepted before, so a code cannot be used twice, even by two requests at once.
   */
  useStep(userId: number, step: number): Promise<boolean>;
  /** Marks an unused recovery code used, atomically; false when it is unknown or was used. */
  useRecoveryCode(userId: number, codeHash: string, now: number): Promise<boolean>;
  /** Whether the user has this recovery code and it was used: why a refused code was refused. */
  recoveryCodeUsed(userId: number, codeHash: string): Promise<boolean>;
  recoveryCodesLeft(userId: number): Promise<number>;

  addChallenge(row: NewSessionRow): Promise<void>;
  /** A pending sign-in that has not expired at `now`. */
  challenge(id: string, now: number): Promise<ChallengeRow | null>;
  /** Deletes a pending sign-in; true for the one request that deleted it. */
  takeChallenge(id: string): Promise<boolean>;
  forgetExpiredChallenges(now: number): Promise<void>;

  setOrgRequirement(orgId: number, required: boolean): Promise<void>;
}
