import type { Role } from "../orgs/roles";
import type { Scope } from "../tokens/scopes";
import type { AuditEvent } from "../audit/events";

/**
 * Who a permission is for: anyone (signing in needs no session), any signed-in user, or a
 * member of the organization named by the request, with one of the row's roles; or, for
 * running the server itself, a superuser (`users.is_superuser`, ./superuser.ts).
 */
export type Audience = "public" | "signed-in" | "organization" | "superuser";

export interface PermissionRow {
  permission: string;
  audience: Audience;
  /** Organization roles allowed; superusers without a membership act as owners (orgs/access.ts). */
  roles: readonly Role[];
  /**
   * The API token scope a request with a bearer token needs besides the role (Sentry's names,
   * src/core/tokens/scopes.ts): every organization row, and signed-in rows the web API serves.
   * Sessions are not scoped.
   */
  scope?: Scope;
  /** What the permission lets one do, for the README and the authorization matrix. */
  description: string;
  /**
   * The audit-log events its actions and routes record, one per change. A row that
   * changes anything names its events here or says in `unaudited` why it has none; a row with
   * neither is read-only (test/integration/audit-coverage.test.ts checks both).
   */
  audit?: readonly AuditEvent[];
  unaudited?: string;
}

// Sentry's roles (src/core/orgs/roles.ts): a member acts on events; an admin also runs
// projects and teams; a manager also manages members and the organization; an owner may do all.
const EVERY_ROLE = ["owner", "manager", "admin", "member"] as const satisfies readonly Role[];
const MANAGERS = ["owner", "manager", "admin"] as const satisfies readonly Role[];
const MEMBER_MANAGERS = ["owner", "manager"] as const satisfies readonly Role[];

/**
 * The one permission table: every page, server action and API route names one of these rows
 * and is allowed or refused by it alone: by role, and for bearer tokens also by scope. The names
 * follow Sentry's `resource:verb` style.
 */
export const PERMISSIONS = [
  { permission: "session:login", audience: "public", roles: [], description: "sign in", audit: ["user.login", "user.login-failed"] },
  {
    permission: "session:setup",
    audience: "public",
    roles: [],
    description: "create the first administrator on an empty server",
    unaudited: "creates the first administrator of an empty server: no organization exists yet",
  },
  {
    permission: "session:logout",
    audience: "public",
    roles: [],
    description: "end one's own session",
    unaudited: "ends one's own session and grants nothing",
  },
  {
    permission: "invite:accept",
    audience: "public",
    roles: [],
    description: "accept an invitation by its emailed link, signing in or creating the account",
    audit: ["member.accept-invite"],
  },
  {
    permission: "account:read",
    audience: "signed-in",
    roles: [],
    scope: "org:read",
    description: "see one's organizations and debug pages",
  },
  {
    // No scope: whatever a token may do, it may say so (Sentry's `GET /api/0/` asks for none).
    permission: "account:whoami",
    audience: "signed-in",
    roles: [],
    description: "see who one's token or session speaks for, and the token's scopes",
  },
  {
    permission: "token:write",
    audience: "signed-in",
    roles: [],
    description: "create, list and revoke one's own API tokens",
    unaudited: "personal tokens belong to their user, not to one organization; organization tokens are audited (org-token:write)",
  },
  {
    permission: "org:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "org:read",
    description: "see an organization and its projects",
  },
  {
    permission: "org:write",
    audience: "organization",
    roles: MEMBER_MANAGERS,
    scope: "org:write",
    description: "rename the organization, set whether members see every project",
    audit: ["org.edit"],
  },
  {
    permission: "member:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "member:read",
    description: "see the organization's members, teams and pending invitations",
  },
  {
    permission: "member:invite",
    audience: "organization",
    roles: MEMBER_MANAGERS,
    scope: "member:write",
    description: "invite people by email, resend and revoke invitations",
    audit: ["member.invite", "member.reinvite", "member.revoke-invite"],
  },
  {
    permission: "member:write",
    audience: "organization",
    roles: MEMBER_MANAGERS,
    scope: "member:admin",
    description: "change members' roles and remove members (no role above one's own; only owners touch owners)",
    audit: ["member.edit", "member.remove"],
  },
  {
    permission: "member:leave",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "org:read",
    description: "leave the organization (its last owner cannot)",
    audit: ["member.leave"],
  },
  {
    permission: "team:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "team:read",
    description: "see teams, their members and projects",
  },
  {
    permission: "team:join",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "team:read",
    description: "join and leave teams",
    audit: ["member.join-team", "member.leave-team", "member.edit-team-role"],
  },
  {
    permission: "team:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "team:write",
    description: "create and rename teams, set their members, team roles and projects",
    audit: ["team.create", "team.edit"],
  },
  {
    permission: "team:delete",
    audience: "organization",
    roles: MANAGERS,
    scope: "team:admin",
    description: "delete a team (not the default team)",
    audit: ["team.remove"],
  },
  {
    permission: "project:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "project:read",
    description: "see a project, its keys, settings and stats",
  },
  {
    permission: "project:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "project:write",
    description: "create projects, rename them and set their teams",
    audit: ["project.create", "project.edit", "project.add-team", "project.remove-team"],
  },
  {
    permission: "project:delete",
    audience: "organization",
    roles: MANAGERS,
    scope: "project:admin",
    description: "delete a project with all its data",
    audit: ["project.remove"],
  },
  {
    permission: "project:settings:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "project:write",
    description: "change filters, scrubbing, grouping, quotas",
    audit: ["project.set-quota", "project.remove-quota", "project.edit-filters", "project.edit-scrubbing", "project.edit-grouping"],
  },
  {
    permission: "key:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "project:write",
    description: "create, enable, disable and rate-limit client keys",
    audit: ["projectkey.create", "projectkey.edit"],
  },
  {
    permission: "key:rotate",
    audience: "organization",
    roles: MANAGERS,
    scope: "project:admin",
    description: "replace a client key by a new one",
    audit: ["projectkey.rotate"],
  },
  {
    permission: "issue:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "event:read",
    description: "see issues, events, attachments and traces",
  },
  {
    permission: "issue:triage",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "event:write",
    description: "resolve, ignore, assign, comment, merge, unmerge",
    unaudited: "each issue's activity records who resolved, ignored, assigned, commented, merged or unmerged, and when",
  },
  {
    permission: "issue:delete",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "event:admin",
    description: "delete issues with their events",
    audit: ["issue.delete"],
  },
  {
    permission: "org-token:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "org:admin",
    description: "create and revoke the organization's tokens (for CI)",
    audit: ["orgauthtoken.create", "orgauthtoken.remove"],
  },
  {
    permission: "dead-letter:read",
    audience: "organization",
    roles: MANAGERS,
    scope: "event:read",
    description: "see envelopes the digest set aside",
  },
  {
    permission: "dead-letter:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "event:admin",
    description: "retry or delete set-aside envelopes",
    audit: ["dead-letter.retry", "dead-letter.remove"],
  },
  // accounts
  {
    permission: "password:reset",
    audience: "public",
    roles: [],
    description: "ask for a password-reset link by email and choose a new password with it",
    unaudited: "an account's own password, not an organization's; a reset ends the account's sessions",
  },
  {
    permission: "account:write",
    audience: "signed-in",
    roles: [],
    description: "change one's password, see one's sessions and end them",
    unaudited: "one's own password and sessions, not an organization's",
  },
  {
    permission: "user:admin",
    audience: "superuser",
    roles: [],
    description: "list, create and delete users, grant superuser, send reset links",
    unaudited: "server administration by superusers, outside every organization",
  },
  // releases and source maps
  {
    permission: "release:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "project:releases",
    description: "see releases, deploys, commits and source-map upload options",
  },
  {
    permission: "release:write",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "project:releases",
    description: "create, finalize and delete releases, record deploys and commits, upload source maps",
    unaudited: "releases, deploys and uploads carry their own dates and are made by CI many times a day; the release pages show them",
  },
  {
    permission: "repo:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "org:write",
    description: "register repositories whose commits releases name",
    audit: ["repo.add"],
  },
  // alerts
  {
    permission: "alert:read",
    audience: "organization",
    roles: EVERY_ROLE,
    scope: "alerts:read",
    description: "see a project's issue alert rules, the organization's metric alert rules and the notifications they sent",
  },
  {
    permission: "alert:write",
    audience: "organization",
    roles: MANAGERS,
    scope: "alerts:write",
    description: "create, change, switch off and delete a project's issue alert rules and the organization's metric alert rules",
    audit: ["rule.add", "rule.edit", "rule.remove", "alertrule.add", "alertrule.edit", "alertrule.remove"],
  },
  // alert webhooks, Slack, Discord and "Test this rule" (hooks)
  {
    permission: "alert:test",
    audience: "organization",
    roles: MANAGERS,
    scope: "alerts:write",
    description: "fire an issue alert rule's actions once with the project's newest issue",
    unaudited: "fires a rule's actions once and changes nothing; each notification it makes is on the Alerts page",
  },
  // notification preferences
  {
    permission: "account:notifications",
    audience: "signed-in",
    roles: [],
    description:
      "choose which emails one gets (issue alerts, per project too; assignments, comments, resolutions) and send oneself a test email",
    unaudited: "one's own notification choices, not an organization's settings",
  },
  // audit log
  {
    permission: "org:audit",
    audience: "organization",
    roles: MEMBER_MANAGERS,
    scope: "org:write",
    description: "read the organization's audit log (no one can change or delete its entries)",
  },
  // two-factor sign-in
  {
    permission: "session:second-factor",
    audience: "public",
    roles: [],
    description: "finish signing in with an authenticator app's code or a recovery code (the pending sign-in's cookie is the credential)",
    unaudited: "its sign-ins and failures are written by core into each of the user's organizations (user.login, user.login-failed)",
  },
  {
    permission: "twofactor:write",
    audience: "signed-in",
    roles: [],
    description: "turn two-factor sign-in on and off for one's own account and renew its recovery codes",
    unaudited:
      "one's own account, no one organization's: core writes user.enable-2fa, user.disable-2fa and user.regenerate-recovery-codes into each organization the user belongs to",
  },
  {
    permission: "org:require-two-factor",
    audience: "organization",
    roles: MEMBER_MANAGERS,
    scope: "org:write",
    description: "require two-factor sign-in of the organization's members",
    audit: ["org.require-2fa"],
  },
  // Single sign-on (decision 0022). Owners only: whoever sets the provider
  // decides who may sign in as a member, so it is not a manager's to change.
  {
    permission: "sso:login",
    audience: "public",
    roles: [],
    description: "sign in through an organization's OpenID provider",
    unaudited: "its sign-ins are written by core (user.login) into each organization of the account, as password sign-ins are",
  },
  {
    permission: "sso:write",
    audience: "organization",
    roles: ["owner"],
    scope: "org:admin",
    description: "set up, change and remove the organization's OpenID provider, require single sign-on",
    audit: ["sso.edit", "sso.require", "sso.disable"],
  },
] as const satisfies readonly PermissionRow[];

type Row = (typeof PERMISSIONS)[number];
export type Permission = Row["permission"];
export type OrgPermission = Extract<Row, { audience: "organization" }>["permission"];
export type PublicPermission = Extract<Row, { audience: "public" }>["permission"];
export type SignedInPermission = Extract<Row, { audience: "signed-in" }>["permission"];
export type SuperuserPermission = Extract<Row, { audience: "superuser" }>["permission"];

const BY_NAME: ReadonlyMap<string, PermissionRow> = new Map(PERMISSIONS.map((row) => [row.permission, row]));

/** Sentry's wording for a refusal (its API answers 403 with this `detail`). */
export const NOT_ALLOWED = "You do not have permission to perform this action.";

export function isPermission(name: string): name is Permission {
  return BY_NAME.has(name);
}

export function permissionRow(permission: Permission): PermissionRow {
  // Every Permission is a key of BY_NAME by construction.
  return BY_NAME.get(permission)!;
}

export function isOrgPermission(name: string): name is OrgPermission {
  return BY_NAME.get(name)?.audience === "organization";
}

/** Whether a member with this role may do it; for public and signed-in rows, everyone may. */
export function roleAllows(role: Role, permission: Permission): boolean {
  const row = permissionRow(permission);
  return row.audience !== "organization" || row.roles.includes(role);
}

/** The audit events a permission's actions and routes may record; none for read-only and unaudited rows. */
export function auditEvents(permission: Permission): readonly AuditEvent[] {
  return permissionRow(permission).audit ?? [];
}

/** The token scope a permission needs (organization rows); null where tokens are not scoped. */
export function permissionScope(permission: Permission): Scope | null {
  return permissionRow(permission).scope ?? null;
}
