/**
 * Every event the audit log records, with the words the page shows. The names follow Sentry's
 * audit log (`member.invite`, `project.remove`, …: https://docs.sentry.io/product/accounts/audit-logs/);
 * the permission table (src/core/permissions/table.ts) says which row's actions record which.
 */
export const AUDIT_EVENTS = {
  "user.login": "signed in",
  "user.login-failed": "failed to sign in",
  "user.enable-2fa": "turned on two-factor sign-in",
  "user.disable-2fa": "turned off two-factor sign-in",
  "user.regenerate-recovery-codes": "replaced their two-factor recovery codes",
  "org.require-2fa": "changed whether the organization requires two-factor sign-in",
  "sso.edit": "set up or changed single sign-on",
  "sso.require": "changed whether the organization requires single sign-on",
  "sso.disable": "removed single sign-on",
  "org.edit": "changed the organization",
  "member.invite": "invited a member",
  "member.reinvite": "resent an invitation",
  "member.revoke-invite": "revoked an invitation",
  "member.accept-invite": "accepted an invitation",
  "member.edit": "changed a member's role",
  "member.remove": "removed a member",
  "member.leave": "left the organization",
  "member.join-team": "added a member to a team",
  "member.leave-team": "took a member off a team",
  "member.edit-team-role": "changed a team role",
  "team.create": "created a team",
  "team.edit": "changed a team",
  "team.remove": "deleted a team",
  "project.create": "created a project",
  "project.edit": "changed a project",
  "project.remove": "deleted a project",
  "project.add-team": "gave a team a project",
  "project.remove-team": "took a project from a team",
  "project.set-quota": "set a quota",
  "project.remove-quota": "removed a quota",
  "project.edit-filters": "changed inbound filters",
  "project.edit-scrubbing": "changed data scrubbing",
  "project.edit-grouping": "changed grouping",
  "projectkey.create": "created a client key",
  "projectkey.edit": "changed a client key",
  "projectkey.rotate": "rotated a client key",
  "orgauthtoken.create": "created an organization token",
  "orgauthtoken.remove": "revoked an organization token",
  "issue.delete": "deleted an issue",
  "dead-letter.retry": "retried a set-aside envelope",
  "dead-letter.remove": "deleted a set-aside envelope",
  "repo.add": "registered a repository",
  "rule.add": "created an alert rule",
  "rule.edit": "changed an alert rule",
  "rule.remove": "deleted an alert rule",
  "alertrule.add": "created a metric alert rule",
  "alertrule.edit": "changed a metric alert rule",
  "alertrule.remove": "deleted a metric alert rule",
} as const;

export type AuditEvent = keyof typeof AUDIT_EVENTS;

export const AUDIT_EVENT_NAMES = Object.keys(AUDIT_EVENTS) as AuditEvent[];

export function isAuditEvent(name: string): name is AuditEvent {
  return Object.hasOwn(AUDIT_EVENTS, name);
}
