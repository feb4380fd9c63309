import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type { ReleasesSchema } from "./schema-releases";
import type { AlertsSchema } from "./schema-alerts";
import type { MetricAlertsSchema } from "./schema-metric-alerts";
import type { NotificationPreferencesSchema } from "./schema-notification-preferences";
import type { AuditSchema } from "./schema-audit";
import type { TwoFactorSchema } from "./schema-two-factor";
import type { SsoSchema } from "./schema-sso";
import type { Role, TeamRole } from "../core/orgs/roles";
import type { Issue } from "../core/issues/issue";
import type { StoredEvent } from "../core/ports/telemetry-read";
import type { Project, ProjectKey, StoredQuota } from "../core/projects/project";

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
  /** When the session was last used, updated at most once a minute (null: not since sign-in). */
  last_seen_at: number | null;
}

/** Login attempts counted in a fixed window per key (`ip:…` or `account:…`), decision 0007. */
export interface LoginAttemptsTable {
  key: string;
  attempts: number;
  window_start: number;
}

export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  is_internal: number;
  created_at: number;
  /** 1: members see every project (Sentry's default); 0: only their teams' projects. */
  open_membership: Generated<number>;
  /** 1: members without two-factor sign-in are sent to enrol before anything else (migration 0030). */
  require_2fa: Generated<number>;
}

export type { Role, TeamRole } from "../core/orgs/roles";

export interface TeamsTable {
  id: Generated<number>;
  organization_id: number;
  slug: string;
  name: string;
  /** The team created with the organization: projects created without naming a team join it. */
  is_default: Generated<number>;
  created_at: number;
}

export interface TeamMembersTable {
  team_id: number;
  user_id: number;
  role: TeamRole;
  created_at: number;
}

export interface ProjectTeamsTable {
  project_id: number;
  team_id: number;
}

/** A pending invitation: accepting it (by the signed link only its email received) makes a membership. */
export interface InvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  role: Role;
  /** Space-separated ids of the teams the new member joins. */
  teams: string;
  /** sha256 of the link's token: a leaked table does not leak invitations. */
  token_hash: string;
  invited_by: number | null;
  created_at: number;
  expires_at: number;
}

export interface MembershipsTable {
  organization_id: number;
  user_id: number;
  role: Role;
  created_at: number;
}

/** The columns of core's `Project` (src/core/projects/project.ts); the database fills in the id and grouping version. */
export interface ProjectsTable extends Omit<Project, "id" | "grouping_config"> {
  id: Generated<number>;
  grouping_config: Generated<string>;
}

/** The columns of core's `ProjectKey` (src/core/projects/project.ts). */
export interface ProjectKeysTable extends Omit<ProjectKey, "id"> {
  id: Generated<number>;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  token_prefix: string;
  created_at: number;
  last_used_at: number | null;
  /** Space-separated scopes (src/core/tokens/scopes.ts); null: every scope the user's role allows (tokens from before scopes). */
  scopes: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  /** Set for an organization token (`sntrys_…`): it works in this organization only. */
  organization_id: number | null;
}

/** Envelopes waiting a moment for their enrichment (migration 0022, src/core/digest/batch.ts). */
export interface DigestDeferredTable {
  id: Generated<number>;
  project_id: number;
  key_id: number;
  received_at: number;
  body: Buffer;
  deferrals: number;
  not_before: number;
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

/**
 * SQLite only: the newest queue row (in the separate queue file) whose digest is committed
 * here. One row, id 1. Written in the digest's own transaction, so a batch is never digested
 * twice even though the queue file's deletions commit separately.
 */
export interface DigestProgressTable {
  id: number;
  last_queue_id: number;
}

/** Per-project, per-category quotas (events per window), set in project settings or the CLI. */
export type ProjectQuotasTable = StoredQuota;

/** Project-level ingest options: inbound filters and scrubbing, as JSON documents. */
export interface ProjectOptionsTable {
  project_id: number;
  filters: string;
  scrubbing: string;
}

/** What happened to every item: accepted, filtered, rate limited, invalid… per hour (Sentry's "outcomes"). */
export interface OutcomesTable {
  project_id: number;
  hour: number;
  category: string;
  outcome: string;
  reason: string;
  quantity: number;
}

/**
 * A stored payload (an event's or a transaction's JSON): written compressed, read back as the
 * compressed bytes or, for rows from before compression, as text. Read it with `decodePayload`
 * (src/core/storage/payload.ts); decision 0013.
 */
export type PayloadColumn = ColumnType<Buffer | string, Buffer, Buffer>;

/** The columns of a stored event as core reads them (src/core/ports/telemetry-read.ts). */
export interface EventsTable extends Omit<StoredEvent, "id" | "data"> {
  id: Generated<number>;
  data: PayloadColumn;
}

export interface TransactionsTable {
  id: Generated<number>;
  project_id: number;
  event_id: string;
  trace_id: string;
  span_id: string;
  name: string;
  op: string;
  status: string;
  start_timestamp: number;
  timestamp: number;
  received_at: number;
  data: PayloadColumn;
}

export interface SpansTable {
  id: Generated<number>;
  project_id: number;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  segment_id: string | null;
  name: string;
  op: string;
  status: string;
  start_timestamp: number;
  timestamp: number;
  data: string;
}

export interface LogsTable {
  id: Generated<number>;
  project_id: number;
  timestamp: number;
  level: string;
  body: string;
  trace_id: string | null;
  data: string;
}

export interface SessionCountsTable {
  project_id: number;
  hour: number;
  release: string;
  environment: string;
  status: string;
  quantity: number;
}

/**
 * Members of a release-health bucket (migration 0020): a user (`kind` 'user', per UTC day) or an
 * unhealthy session (`kind` 'session', per started hour), by hash, with its worst status
 * (0 ok, 1 errored, 2 unhandled, 3 abnormal, 4 crashed).
 */
export interface SessionDistinctTable {
  project_id: number;
  kind: string;
  bucket: number;
  release: string;
  environment: string;
  member: string;
  worst: number;
}

export interface FeedbackTable {
  id: Generated<number>;
  project_id: number;
  event_id: string | null;
  name: string;
  email: string;
  comments: string;
  received_at: number;
  data: string;
}

export interface CheckInsTable {
  id: Generated<number>;
  project_id: number;
  check_in_id: string;
  monitor_slug: string;
  status: string;
  duration: number | null;
  environment: string | null;
  received_at: number;
  data: string;
}

export interface AttachmentsTable {
  id: Generated<number>;
  project_id: number;
  event_id: string | null;
  name: string;
  content_type: string;
  attachment_type: string;
  size: number;
  /** 0 while chunks are still arriving: a request cut off mid-upload leaves no visible attachment. */
  complete: number;
  created_at: number;
}

export interface AttachmentChunksTable {
  attachment_id: number;
  seq: number;
  data: Buffer;
}

/** Items Telltale keeps but does not interpret yet (profiles, replays, metrics, unknown types). */
export interface RawItemsTable {
  id: Generated<number>;
  project_id: number;
  type: string;
  event_id: string | null;
  received_at: number;
  payload: Buffer;
}

/** An envelope the digest set aside (docs/decisions/0006-dead-letters.md). */
export interface DeadLettersTable {
  id: Generated<number>;
  project_id: number;
  key_id: number;
  received_at: number;
  created_at: number;
  /** The envelope's item types, comma-separated, as far as it parsed. */
  item_types: string;
  size: number;
  reason: string;
  /** At most 4 KB of the body after scrubbing: the only part of it any page shows. */
  excerpt: string;
  /** The envelope as queued, only for retry; never shown. */
  body: Buffer;
}

/**
 * An issue's row: the columns of the domain issue (src/core/issues/issue.ts), with the id and
 * the team assignee the database fills in when an insert leaves them out.
 */
export interface IssuesTable extends Omit<Issue, "id" | "assignee_team_id"> {
  id: Generated<number>;
  assignee_team_id: Generated<number | null>;
}

export interface IssueHashesTable {
  project_id: number;
  hash: string;
  issue_id: number;
  grouping_config: string;
  /** The issue this hash belonged to before a merge moved it here; null on its own issue (unmerge reads it). */
  merged_from: number | null;
}

export interface IssueTagsTable {
  issue_id: number;
  key: string;
  value: string;
  times_seen: number;
  first_seen: number;
  last_seen: number;
}

export interface IssueUsersTable {
  issue_id: number;
  user_key: string;
  first_seen: number;
}

export interface IssueHourlyTable {
  issue_id: number;
  hour: number;
  count: number;
}

/** Events per issue and minute, for the last day (frequency conditions over minutes). */
export interface IssueMinutesTable {
  issue_id: number;
  minute: number;
  count: number;
}

/** The users an issue's events came from, per minute (last day) and per hour (beyond). */
export interface IssueMinuteUsersTable {
  issue_id: number;
  minute: number;
  user_key: string;
}

export interface IssueHourUsersTable {
  issue_id: number;
  hour: number;
  user_key: string;
}

/** One change of an issue's state, in the outbox: numbered in commit order (src/core/outbox). */
export interface IssueChangesTable {
  seq: number;
  project_id: number;
  issue_id: number;
  kind: string;
  /** JSON object: what the change carries (release, event id, assignee, text…). */
  data: string;
  user_id: number | null;
  created_at: number;
}

export interface OutboxCounterTable {
  id: number;
  seq: number;
}

export interface OutboxPositionsTable {
  consumer: string;
  seq: number;
  updated_at: number;
}

export interface IssueActivityTable {
  id: Generated<number>;
  issue_id: number;
  user_id: number | null;
  type: string;
  data: string;
  created_at: number;
}

export interface IssueBookmarksTable {
  issue_id: number;
  user_id: number;
}

export interface ProjectGroupingTable {
  project_id: number;
  fingerprint_rules: string;
  next_short_number: number;
}

export interface DB
  extends ReleasesSchema, AlertsSchema, MetricAlertsSchema, NotificationPreferencesSchema, AuditSchema, TwoFactorSchema, SsoSchema {
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  project_teams: ProjectTeamsTable;
  invitations: InvitationsTable;
  projects: ProjectsTable;
  project_keys: ProjectKeysTable;
  api_tokens: ApiTokensTable;
  ingest_queue: IngestQueueTable;
  digest_deferred: DigestDeferredTable;
  digest_progress: DigestProgressTable;
  project_quotas: ProjectQuotasTable;
  project_options: ProjectOptionsTable;
  outcomes: OutcomesTable;
  events: EventsTable;
  transactions: TransactionsTable;
  spans: SpansTable;
  logs: LogsTable;
  session_counts: SessionCountsTable;
  session_distinct: SessionDistinctTable;
  feedback: FeedbackTable;
  check_ins: CheckInsTable;
  attachments: AttachmentsTable;
  attachment_chunks: AttachmentChunksTable;
  raw_items: RawItemsTable;
  dead_letters: DeadLettersTable;
  issues: IssuesTable;
  issue_hashes: IssueHashesTable;
  issue_tags: IssueTagsTable;
  issue_users: IssueUsersTable;
  issue_hourly: IssueHourlyTable;
  issue_minutes: IssueMinutesTable;
  issue_minute_users: IssueMinuteUsersTable;
  issue_hour_users: IssueHourUsersTable;
  issue_activity: IssueActivityTable;
  issue_changes: IssueChangesTable;
  outbox_counter: OutboxCounterTable;
  outbox_positions: OutboxPositionsTable;
  issue_bookmarks: IssueBookmarksTable;
  project_grouping: ProjectGroupingTable;
  password_resets: PasswordResetsTable;
}

/** A password-reset link's token, stored as its SHA-256 ; deleted when used. */
export interface PasswordResetsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

// Core's domain types, kept importable from here until every page and test imports them from core.
// A user read through core carries no password hash.
export type { User } from "../core/accounts/user";
export type { Organization } from "../core/orgs/organization";
export type Membership = Selectable<MembershipsTable>;
export type { Project, ProjectKey };
export type Team = Selectable<TeamsTable>;
export type Invitation = Selectable<InvitationsTable>;
export type ApiToken = Selectable<ApiTokensTable>;
export type NewProjectKey = Insertable<ProjectKeysTable>;

/** The ingest queue's database: on SQLite a file of its own beside the main one, on PostgreSQL the main database. */
export type QueueDB = Pick<DB, "ingest_queue">;
