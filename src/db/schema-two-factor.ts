import type { Generated } from "kysely";

/** Tables of two-factor sign-in (migration 0030), part of `DB` in ./schema.ts. */
export interface TwoFactorSchema {
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  login_challenges: LoginChallengesTable;
}

/** A user's TOTP secret; a row exists only once enrolment was confirmed with a code. */
export interface UserTotpTable {
  user_id: number;
  /** `plain:BASE32` or `v1:…` sealed with TELLTALE_SECRET_KEY (src/core/crypto/secret-box.ts). */
  secret: string;
  /** The time step of the last code accepted; a code of that step or an earlier one is refused. */
  last_step: number | null;
  created_at: number;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the normalised code; the code itself is shown once and never stored. */
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

/** A pending sign-in: the password was right, the second factor is still to come. */
export interface LoginChallengesTable {
  /** SHA-256 of the cookie token. */
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
}
