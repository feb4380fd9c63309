import type { Role } from "../orgs/roles";
import type { Account } from "./accounts";

/**
 * What single sign-on (decision 0022) needs from storage. Implemented over the main
 * database in src/db/sso-store.ts; core says what, src/db says how, per dialect.
 */

/** An organization's OpenID provider as stored; the client secret still encrypted. */
export interface SsoProviderRecord {
  organizationId: number;
  issuer: string;
  clientId: string;
  /** Sealed (src/core/crypto/secret-box.ts); never shown. */
  clientSecret: string;
  /** The discovered provider metadata, JSON. */
  metadata: string;
  defaultRole: Role;
  defaultTeamId: number | null;
  requireSso: boolean;
  updatedAt: number;
}

/** An organization whose members must sign in through its provider, as a refused sign-in names it. */
export interface SsoRequirement {
  slug: string;
  name: string;
}

export interface SsoStore {
  provider(organizationId: number): Promise<SsoProviderRecord | null>;
  /** The provider of the organization with this slug, with the organization's id and name. */
  providerBySlug(slug: string): Promise<{ org: { id: number; slug: string; name: string }; provider: SsoProviderRecord } | null>;
  /** Creates or replaces the organization's provider; `requireSso` is kept as it was. */
  putProvider(record: Omit<SsoProviderRecord, "requireSso" | "updatedAt">, now: number): Promise<void>;
  setRequireSso(organizationId: number, required: boolean, now: number): Promise<boolean>;
  /** Removes the provider and the identities linked through it. */
  deleteProvider(organizationId: number): Promise<boolean>;

  /** The account an identity of the organization's provider signs in as; its last sign-in is noted. */
  identityUser(organizationId: number, issuer: string, subject: string, now: number): Promise<Account | null>;
  /** Links an identity to an account; a second link of the same identity (a race) is a no-op. */
  linkIdentity(link: { organizationId: number; issuer: string; subject: string; userId: number }, now: number): Promise<void>;
  /**
   * Creates an account that has no password (its hash matches no password) and links the
   * identity to it, in one transaction; null when the email is taken by then.
   */
  createSsoUser(
    user: { email: string; name: string; unusablePasswordHash: string },
    link: { organizationId: number; issuer: string; subject: string },
    now: number,
  ): Promise<Account | null>;
  /** Organizations requiring SSO where the user is a member but not an owner (owners keep the password). */
  requirementsFor(userId: number): Promise<SsoRequirement[]>;
  /** Organizations the user belongs to, by id. */
  membershipOrgIds(userId: number): Promise<number[]>;
}
