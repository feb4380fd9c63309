import type { Generated, Insertable, Selectable } from "kysely";

/**
 * Tables as the typed query layer sees them, identical on SQLite and PostgreSQL.
 * Timestamps are integer milliseconds since the epoch; flags are 0/1 integers, so that
 * rows read the same from both databases (PostgreSQL int8 is parsed to number in connect.ts).
 */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  is_superuser: number;
  created_at: number;
}

export interface SessionsTable {
  id: string; // sha256 of the cookie token: a leaked table does not leak sessions
  user_id: number;
  created_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  ip: string;
  at: number;
}

export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  is_internal: number;
  created_at: number;
}

export type Role = "owner" | "admin" | "member";

export interface MembershipsTable {
  organization_id: number;
  user_id: number;
  role: Role;
  created_at: number;
}

export interface ProjectsTable {
  id: Generated<number>;
  organization_id: number;
  slug: string;
  name: string;
  platform: string;
  created_at: number;
}

export interface ProjectKeysTable {
  id: Generated<number>;
  project_id: number;
  label: string;
  public_key: string;
  secret_key: string;
  is_active: number;
  /** Events accepted per window through this key; null means no per-key limit. */
  rate_limit_count: number | null;
  rate_limit_window_seconds: number | null;
  created_at: number;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  token_prefix: string;
  created_at: number;
  last_used_at: number | null;
}

/**
 * Accepted, not yet digested request bodies: the durable hand-off between the request path
 * and the digest step. A row exists before the SDK gets its 200.
 */
export interface IngestQueueTable {
  id: Generated<number>;
  project_id: number;
  key_id: number;
  endpoint: "envelope" | "store";
  received_at: number;
  body: Buffer;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  projects: ProjectsTable;
  project_keys: ProjectKeysTable;
  api_tokens: ApiTokensTable;
  ingest_queue: IngestQueueTable;
}

export type User = Selectable<UsersTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Membership = Selectable<MembershipsTable>;
export type Project = Selectable<ProjectsTable>;
export type ProjectKey = Selectable<ProjectKeysTable>;
export type ApiToken = Selectable<ApiTokensTable>;
export type NewProjectKey = Insertable<ProjectKeysTable>;
