import type { User } from "../accounts/user";

/** An API token as stored: its hash stays in storage, only its first characters come back. */
export interface StoredToken {
  id: number;
  name: string;
  prefix: string;
  /** As `formatScopes` wrote them (src/core/tokens/scopes.ts); null: every scope the role allows. */
  scopes: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface NewTokenRow {
  userId: number;
  /** An organization token's organization; null for a personal token. */
  organizationId: number | null;
  name: string;
  /** The SHA-256 of the token: the token itself is never stored. */
  hash: string;
  prefix: string;
  scopes: string | null;
  createdAt: number;
  expiresAt: number | null;
}

/** Who holds a token: a user their personal tokens, an organization its tokens. */
export type TokenOwner = { userId: number } | { organizationId: number };

/**
 * Personal and organization API tokens (src/core/tokens). Implemented over the main database by
 * src/db/token-store.ts.
 */
export interface TokenStore {
  /** Stores a token; answers its id. */
  add(token: NewTokenRow): Promise<number>;
  /** The user's personal tokens, newest first, revoked ones included. */
  personal(userId: number): Promise<StoredToken[]>;
  /** The organization's tokens, newest first, with the email of the user who made each. */
  ofOrganization(organizationId: number): Promise<(StoredToken & { createdBy: string })[]>;
  /** Revokes a token `owner` holds, keeping the first revocation's time; false when it holds no such token. */
  revoke(tokenId: number, owner: TokenOwner, now: number): Promise<boolean>;
  /** The token with this hash and its user, whatever its state (revoked, expired). */
  byHash(hash: string): Promise<{ token: StoredToken & { organizationId: number | null }; user: User } | null>;
  /** Records the token's use at `now`. */
  markUsed(tokenId: number, now: number): Promise<void>;
}
