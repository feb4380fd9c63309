import type { User } from "../accounts/user";

/**
 * What the account features (sign-in, first run, password reset, change password, sessions,
 * user management) need from storage. Implemented over the main database in
 * src/db/account-store.ts; core says what, src/db says how, per dialect.
 */

/** The stored user, password hash included (the password checks read it). */
export interface Account extends User {
  password_hash: string;
}

/** A user to add: the password already hashed. */
export interface NewAccountRow {
  email: string;
  name: string;
  passwordHash: string;
  superuser: boolean;
}

export interface AttemptCount {
  /** Attempts in the current window, this one included. */
  attempts: number;
  windowStart: number;
}

/** A session (or a pending two-factor sign-in) as it is written: the cookie token's hash, whose and when. */
export interface NewSessionRow {
  /** The SHA-256 of the cookie token. */
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
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
  user: User;
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
  /** The user with this (lower-case) email and their password hash, for the password sign-in. */
  credentials(email: string): Promise<{ user: User; passwordHash: string } | null>;
  /** Adds a user; null when the email is taken. */
  addUser(user: NewAccountRow, now: number): Promise<User | null>;
  /**
   * First run, in one transaction: while there is no user, adds `admin` and the organization
   * they own (with its default team). Otherwise, or when the slug is taken, nothing changes.
   */
  addFirstAdmin(
    admin: NewAccountRow,
    org: { slug: string; name: string },
    now: number,
  ): Promise<{ user: User } | { refused: "set-up" | "slug-taken" }>;

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

  /** Stores a session under the hash of its cookie token. */
  addSession(session: NewSessionRow): Promise<void>;
  /** The user of a session unexpired at `now`, and when it was last used (or opened). */
  sessionUser(sessionId: string, now: number): Promise<{ user: User; lastSeenAt: number } | null>;
  /** Sets the session's last use to `now` unless it was recorded after `since` already. */
  touchSession(sessionId: string, now: number, since: number): Promise<void>;
  endSession(sessionId: string): Promise<void>;
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
