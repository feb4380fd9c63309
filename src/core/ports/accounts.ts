/**
 * What the account features (password reset, change password, sessions,
 * user management) need from storage. Implemented over the main database in
 * src/db/account-store.ts; core says what, src/db says how, per dialect.
 */

/** A user as core sees it (the `users` row). */
export interface Account {
  id: number;
  email: string;
  name: string;
  password_hash: string;
  is_superuser: number;
  created_at: number;
}

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  attempts: number;
  windowStart: number;
}

export interface SessionRow {
  /** The SHA-256 of the cookie token. */
  id: string;
  ip: string;
  user_agent: string;
  created_at: number;
  last_seen_at: number | null;
}

export interface UserActivity {
  user: Omit<Account, "password_hash">;
  organizations: { slug: string; name: string; role: string }[];
  /** The newest sign-in or use of any of the user's sessions; null when there is none. */
  lastActiveAt: number | null;
}

export interface AccountStore {
  /** Counts one attempt against `key` atomically (src/db/login-attempts.ts, decision 0007). */
  countAttempt(key: string, now: number, windowMs: number): Promise<AttemptCount>;
  forgetExpiredAttempts(now: number, windowMs: number): Promise<void>;
  /** Gives back an attempt that turned out right, unless its window has since started again. */
  refundAttempt(key: string, windowStart: number): Promise<void>;

  userByEmail(email: string): Promise<Account | null>;
  userById(id: number): Promise<Account | null>;
  /** How many users there are: none means Telltale is not set up yet. */
  countUsers(): Promise<number>;

  addResetToken(row: { id: string; userId: number; createdAt: number; expiresAt: number }): Promise<void>;
  /** The user a stored reset token is for, and when it expires. */
  resetToken(id: string): Promise<{ user: Pick<Account, "id" | "email">; expiresAt: number } | null>;
  /**
   * Uses a reset token in one transaction: deletes it (so two uses cannot both pass) and, when
   * it has not expired at `now`, sets the password, ends every session and every other reset
   * token of its user and answers the user; null for an unknown or expired token.
   */
  useResetToken(id: string, now: number, passwordHash: string): Promise<Account | null>;

  /** Sets a password and ends the user's reset tokens and sessions, all but `keepSessionId`. */
  setPassword(userId: number, passwordHash: string, keepSessionId: string | null): Promise<void>;

  liveSessions(userId: number, now: number): Promise<SessionRow[]>;
  /** Whether the user had that session. */
  deleteSession(userId: number, sessionId: string): Promise<boolean>;
  deleteSessions(userId: number, exceptSessionId: string | null): Promise<void>;

  usersWithActivity(): Promise<UserActivity[]>;
  /**
   * Grants or takes the superuser flag. Taking it is atomic with its check: it happens only
   * while `actorId` is still a superuser and another superuser besides the user remains;
   * otherwise the flag stays and the answer says why.
   */
  setSuperuser(
    userId: number,
    superuser: boolean,
    actorId: number,
  ): Promise<{ account: Account } | { refused: "last-superuser" | "actor-not-superuser" }>;
  /**
   * Deletes the user and their memberships in one transaction, unless they are the only owner
   * of an organization: then nothing changes and the slugs of those organizations come back.
   */
  deleteUserUnlessLastOwner(userId: number): Promise<{ lastOwnerOf: string[] }>;
}
