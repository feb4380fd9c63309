import type { Generated } from "kysely";
import type { Role } from "../core/orgs/roles";

/** Tables of single sign-on (migration 0029), part of `DB` in ./schema.ts. */
export interface SsoSchema {
  sso_providers: SsoProvidersTable;
  sso_identities: SsoIdentitiesTable;
}

export interface SsoProvidersTable {
  organization_id: number;
  issuer: string;
  client_id: string;
  /** Sealed for `sso-client-secret` (src/core/crypto/secret-box.ts): `v1:…`, or `v1.…` from before that box. */
  client_secret: string;
  /** The provider's discovered metadata (its `.well-known/openid-configuration`), JSON. */
  metadata: string;
  default_role: Role;
  default_team_id: number | null;
  require_sso: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SsoIdentitiesTable {
  id: Generated<number>;
  organization_id: number;
  issuer: string;
  subject: string;
  user_id: number;
  created_at: number;
  last_sign_in_at: number;
}
