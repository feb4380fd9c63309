import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import { AUDIT_EVENT_NAMES } from "../../src/core/audit/events";
import type { Ctx } from "../../src/core/context";
import type { Store } from "../../src/db/store";
import { hashValues, registerGroupingStrategy, type GroupingStrategy } from "../../src/core/grouping/index";
import { createKey } from "../../src/core/keys/manage";
import { createMetricRule } from "../../src/core/metric-alerts/manage";
import { TWO_FACTOR_AUDIT_EVENTS } from "../../src/core/twofactor/audit";
import { createOrganization } from "../../src/core/orgs/create-org";
import { inviteMember } from "../../src/core/orgs/invitations";
import { organizationFor } from "../../src/core/orgs/access";
import type { Role } from "../../src/core/orgs/roles";
import { auditEvents, PERMISSIONS, permissionRow, type Permission } from "../../src/core/permissions/table";
import { createProject } from "../../src/core/projects/create-project";
import { addProjectToTeam, teamInOrg } from "../../src/core/teams/teams";
import { createToken, issueOrgToken } from "../../src/core/tokens/tokens";
import { seedIssues } from "../support/issue-seeds";
import type { User } from "../../src/db/schema";
import { ROUTES } from "../../src/server/api/router";
import { CLIENT_IP_HEADER } from "../../src/server/headers";
import type { FormState } from "../../app/lib/forms";
import { startApiServer } from "../support/api-server";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { saveSsoProvider } from "../../src/core/sso/configure";
import { readSource, scanServerActions, sourceFiles, type Registration } from "../support/permission-scan";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

/**
 * Issue 15, item 3: the audit log's coverage, driven by the permission table. Every row either
 * names the audit events its actions record (`audit`), says why it records none (`unaudited`), or
 * is read-only — then no server action and no non-GET route may register with it. And every
 * server action and web API route registered with an audited row is performed here for real, on
 * both databases, and must write exactly one entry with the right event, actor, address and
 * target. A new action on an audited row without a case below fails ("no case for …"); a case
 * whose action records nothing, or twice, fails too.
 */

const session = vi.hoisted(() => ({ user: null as User | null, ctx: null as Ctx | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`redirect to ${to}`), { audit: "redirect" });
  },
  notFound: () => {
    throw Object.assign(new Error("not found"), { audit: "not_found" });
  },
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "user-agent": "audit" }),
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));
const ACTION_IP = "203.0.113.7";
const API_IP = "203.0.113.9";
vi.mock("../../app/lib/auth", () => ({
  requireUser: async () => {
    if (!session.user) throw new Error("no user signed in for this test");
    return session.user;
  },
  currentUser: async () => session.user,
  clientIp: async () => "203.0.113.7",
  setSessionCookie: async () => undefined,
  safeNext: (next: string) => next || "/",
}));
vi.mock("../../app/lib/app-runtime", () => ({ ctx: () => session.ctx }));

const ROOT = join(import.meta.dirname, "..", "..");
const ACTIONS: Registration[] = [...sourceFiles(ROOT, "app"), ...sourceFiles(ROOT, "src")].flatMap(
  (file) => scanServerActions(file, readSource(ROOT, file)).registrations,
);
const WRITE_ROUTES = ROUTES.filter((r) => r.method !== "GET");

const isAudited = (permission: string) => (permissionRow(permission as Permission).audit ?? []).length > 0;
const actionKey = (r: Registration) => `${r.file.replace(/^app\/actions\//, "")} ${r.name}`;
const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe("the permission table declares the audit log's coverage", () => {
  it("has every row audited, unaudited with a reason, or read-only", () => {
    for (const row of PERMISSIONS as readonly { permission: string; audit?: readonly string[]; unaudited?: string }[]) {
      expect(row.audit !== undefined && row.unaudited !== undefined, `${row.permission}: both audit and unaudited`).toBe(false);
      if (row.audit) expect(row.audit.length, `${row.permission}: an empty audit list`).toBeGreaterThan(0);
      if (row.unaudited !== undefined) expect(row.unaudited.length, `${row.permission}: unaudited needs a reason`).toBeGreaterThan(10);
      for (const event of row.audit ?? []) expect(AUDIT_EVENT_NAMES).toContain(event);
    }
  });

  it("lets no server action and no non-GET route register with a read-only row", () => {
    const readOnly = new Set(PERMISSIONS.filter((r) => !("audit" in r) && !("unaudited" in r)).map((r) => r.permission as string));
    expect(readOnly.has("org:read") && readOnly.has("org:audit")).toBe(true);
    const writesOnReadRows = [
      ...ACTIONS.filter((a) => readOnly.has(a.permission)).map(actionKey),
      ...WRITE_ROUTES.filter((r) => readOnly.has(r.permission)).map(routeKey),
    ];
    expect(writesOnReadRows).toEqual([]);
  });

  it("has every event recorded by some row", () => {
    const declared = new Set<string>([...PERMISSIONS.flatMap((r) => ("audit" in r ? [...r.audit] : [])), ...TWO_FACTOR_AUDIT_EVENTS]);
    expect(AUDIT_EVENT_NAMES.filter((e) => !declared.has(e))).toEqual([]);
  });
});

/** The test-only grouping version a project can be upgraded to. */
const NEWER_GROUPING: GroupingStrategy = {
  id: "test:audit-newer",
  released: "2099-01-01",
  description: "Test only: the message alone.",
  defaultVariants: (event) => [
    { id: "default", description: "message", contributes: true, hint: null, hash: hashValues([event.exception?.values?.[0]?.value ?? ""]) },
  ],
};

interface World {
  ctx: Ctx;
  store: Store;
  orgId: number;
  owner: User;
  tokenId: number;
  token: string;
  /** A new member of acme with this role. */
  member(role?: Role): Promise<User>;
  /** A new project of acme, on the default team. */
  project(): Promise<{ id: number; slug: string }>;
  team(): Promise<{ id: number; slug: string }>;
  seq(): number;
}

interface Expected {
  event: string;
  targetType: string;
  targetLabel: string;
  /** Who acts, when not the owner. */
  actor?: User;
}

/** A server action case: the form it is sent (after `org`), and what it must record. */
interface ActionCase {
  form(w: World): Promise<{ fields: Record<string, string>; expected: Expected }>;
}
/** A route case: the path's parameters after the organization, the body, and what it must record. */
interface RouteCase {
  request(w: World): Promise<{ params: string[]; body?: unknown; expected: Expected }>;
}

const ACTION_CASES: Record<string, ActionCase> = {
  "session.ts loginAction": {
    async form(w) {
      const user = await w.member();
      return {
        fields: { email: user.email, password: "password-123" },
        expected: { event: "user.login", targetType: "user", targetLabel: user.email, actor: user },
      };
    },
  },
  "invitations.ts acceptInvitationAction": {
    async form(w) {
      const user = await createUser({ ctx: w.ctx, input: { email: `joiner${w.seq()}@example.com`, password: "password-123" } });
      const access = await organizationFor(w.ctx, w.owner, "acme");
      const sent = await inviteMember({
        ctx: w.ctx,
        input: { access, inviter: w.owner, invitation: { email: user.email, role: "member", teams: [] } },
      });
      session.user = user;
      const token = new URL(sent.link).pathname.split("/").pop() ?? "";
      return { fields: { token }, expected: { event: "member.accept-invite", targetType: "member", targetLabel: user.email, actor: user } };
    },
  },
  "invitations.ts inviteAction": {
    async form(w) {
      const email = `invitee${w.seq()}@example.com`;
      return { fields: { email, role: "member" }, expected: { event: "member.invite", targetType: "invitation", targetLabel: email } };
    },
  },
  "invitations.ts resendInvitationAction": {
    async form(w) {
      const { invitation } = await invite(w);
      return {
        fields: { invitation: String(invitation.id) },
        expected: { event: "member.reinvite", targetType: "invitation", targetLabel: invitation.email },
      };
    },
  },
  "invitations.ts revokeInvitationAction": {
    async form(w) {
      const { invitation } = await invite(w);
      return {
        fields: { invitation: String(invitation.id) },
        expected: { event: "member.revoke-invite", targetType: "invitation", targetLabel: invitation.email },
      };
    },
  },
  "members.ts changeMemberRoleAction": {
    async form(w) {
      const m = await w.member();
      return {
        fields: { userId: String(m.id), role: "admin" },
        expected: { event: "member.edit", targetType: "member", targetLabel: m.email },
      };
    },
  },
  "members.ts removeMemberAction": {
    async form(w) {
      const m = await w.member();
      return { fields: { userId: String(m.id) }, expected: { event: "member.remove", targetType: "member", targetLabel: m.email } };
    },
  },
  "members.ts leaveOrganizationAction": {
    async form(w) {
      const m = await w.member();
      session.user = m;
      return { fields: {}, expected: { event: "member.leave", targetType: "member", targetLabel: m.email, actor: m } };
    },
  },
  "members.ts updateOrganizationAction": {
    async form() {
      return {
        fields: { name: "Acme Renamed", slug: "acme" },
        expected: { event: "org.edit", targetType: "organization", targetLabel: "acme" },
      };
    },
  },
  "members.ts setOpenMembershipAction": {
    async form() {
      return { fields: { open: "0" }, expected: { event: "org.edit", targetType: "organization", targetLabel: "acme" } };
    },
  },
  "teams.ts createTeamAction": {
    async form(w) {
      const slug = `made-${w.seq()}`;
      return { fields: { slug }, expected: { event: "team.create", targetType: "team", targetLabel: `#${slug}` } };
    },
  },
  "teams.ts renameTeamAction": {
    async form(w) {
      const team = await w.team();
      return {
        fields: { team: team.slug, name: "Renamed", slug: team.slug },
        expected: { event: "team.edit", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "teams.ts deleteTeamAction": {
    async form(w) {
      const team = await w.team();
      return { fields: { team: team.slug }, expected: { event: "team.remove", targetType: "team", targetLabel: `#${team.slug}` } };
    },
  },
  "teams.ts addTeamMemberAction": {
    async form(w) {
      const [team, m] = [await w.team(), await w.member()];
      return {
        fields: { team: team.slug, userId: String(m.id), role: "contributor" },
        expected: { event: "member.join-team", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "teams.ts removeTeamMemberAction": {
    async form(w) {
      const [team, m] = [await w.team(), await w.member()];
      await w.ctx.directory.addTeamMember(team.id, m.id, "contributor", Date.now());
      return {
        fields: { team: team.slug, userId: String(m.id) },
        expected: { event: "member.leave-team", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "teams.ts setTeamRoleAction": {
    async form(w) {
      const [team, m] = [await w.team(), await w.member()];
      await w.ctx.directory.addTeamMember(team.id, m.id, "contributor", Date.now());
      return {
        fields: { team: team.slug, userId: String(m.id), role: "admin" },
        expected: { event: "member.edit-team-role", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "teams.ts addTeamProjectAction": {
    async form(w) {
      const [team, p] = [await w.team(), await w.project()];
      return {
        fields: { team: team.slug, project: p.slug },
        expected: { event: "project.add-team", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "teams.ts removeTeamProjectAction": {
    async form(w) {
      const [team, p] = [await w.team(), await w.project()];
      await addProjectToTeam(w.ctx, await teamInOrg(w.ctx, w.orgId, team.slug), { ...p, organization_id: w.orgId });
      return {
        fields: { team: team.slug, project: p.slug },
        expected: { event: "project.remove-team", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "teams.ts deleteProjectAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, confirm: p.slug },
        expected: { event: "project.remove", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts createProjectAction": {
    async form(w) {
      const slug = `new-${w.seq()}`;
      return { fields: { slug, platform: "javascript" }, expected: { event: "project.create", targetType: "project", targetLabel: slug } };
    },
  },
  "projects.ts createKeyAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, label: "CI key" },
        expected: { event: "projectkey.create", targetType: "projectkey", targetLabel: "CI key" },
      };
    },
  },
  "projects.ts setKeyActiveAction": {
    async form(w) {
      const { p, key } = await keyed(w);
      return {
        fields: { project: p.slug, keyId: String(key.id), active: "0" },
        expected: { event: "projectkey.edit", targetType: "projectkey", targetLabel: key.label },
      };
    },
  },
  "projects.ts rotateKeyAction": {
    async form(w) {
      const { p, key } = await keyed(w);
      return {
        fields: { project: p.slug, keyId: String(key.id) },
        expected: { event: "projectkey.rotate", targetType: "projectkey", targetLabel: key.label },
      };
    },
  },
  "projects.ts setKeyRateLimitAction": {
    async form(w) {
      const { p, key } = await keyed(w);
      return {
        fields: { project: p.slug, keyId: String(key.id), count: "100", window: "60" },
        expected: { event: "projectkey.edit", targetType: "projectkey", targetLabel: key.label },
      };
    },
  },
  "projects.ts setQuotaAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, category: "error", count: "1000", window: "3600" },
        expected: { event: "project.set-quota", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts removeQuotaAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, category: "error" },
        expected: { event: "project.remove-quota", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts saveFiltersAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, scriptError: "on", errorMessages: "ignored*" },
        expected: { event: "project.edit-filters", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts saveScrubbingAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, extraSensitiveFields: "iban" },
        expected: { event: "project.edit-scrubbing", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts saveFingerprintRulesAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, rules: "error.type:DatabaseError -> database" },
        expected: { event: "project.edit-grouping", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "projects.ts upgradeGroupingAction": {
    async form(w) {
      const p = await w.project();
      return {
        fields: { project: p.slug, to: NEWER_GROUPING.id },
        expected: { event: "project.edit-grouping", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "tokens.ts createOrgTokenAction": {
    async form() {
      return {
        fields: { name: "CI deploys" },
        expected: { event: "orgauthtoken.create", targetType: "orgauthtoken", targetLabel: "CI deploys" },
      };
    },
  },
  "tokens.ts revokeOrgTokenAction": {
    async form(w) {
      const { id } = await issueOrgToken(w.ctx, w.owner.id, { id: w.orgId, slug: "acme" }, { name: "Old CI" });
      return {
        fields: { tokenId: String(id) },
        expected: { event: "orgauthtoken.remove", targetType: "orgauthtoken", targetLabel: "Old CI" },
      };
    },
  },
  "alerts.ts setAlertRuleStatusAction": {
    async form(w) {
      const { p, rule } = await ruled(w);
      return {
        fields: { project: p.slug, ruleId: String(rule.id), active: "0" },
        expected: { event: "rule.edit", targetType: "rule", targetLabel: rule.name },
      };
    },
  },
  "alerts.ts saveAlertRuleAction": {
    async form(w) {
      const p = await w.project();
      const name = `Editor rule ${w.seq()}`;
      return {
        fields: {
          project: p.slug,
          name,
          actionMatch: "all",
          filterMatch: "all",
          frequency: "30",
          "c.first_seen": "on",
          "a.email": "on",
          "action.target": "IssueOwners",
        },
        expected: { event: "rule.add", targetType: "rule", targetLabel: name },
      };
    },
  },
  "alerts.ts deleteAlertRuleAction": {
    async form(w) {
      const { p, rule } = await ruled(w);
      return {
        fields: { project: p.slug, ruleId: String(rule.id) },
        expected: { event: "rule.remove", targetType: "rule", targetLabel: rule.name },
      };
    },
  },
  "alerts.ts addDefaultAlertRuleAction": {
    async form(w) {
      const p = await w.project();
      await w.store.db.deleteFrom("alert_rules").where("project_id", "=", p.id).execute();
      return {
        fields: { project: p.slug },
        expected: { event: "rule.add", targetType: "rule", targetLabel: "Send a notification for new issues" },
      };
    },
  },
  "metric-alerts.ts saveMetricRuleAction": {
    async form(w) {
      const p = await w.project();
      const name = `Error spike ${w.seq()}`;
      return {
        fields: {
          name,
          aggregate: "count()",
          timeWindow: "5",
          query: "",
          environment: "",
          projects: p.slug,
          thresholdType: "0",
          critical: "10",
          warning: "",
          resolve: "",
          target: `user:${w.owner.id}`,
        },
        expected: { event: "alertrule.add", targetType: "alertrule", targetLabel: name },
      };
    },
  },
  "metric-alerts.ts deleteMetricRuleAction": {
    async form(w) {
      const rule = await metricRule(w);
      return {
        fields: { ruleId: String(rule.id) },
        expected: { event: "alertrule.remove", targetType: "alertrule", targetLabel: rule.name },
      };
    },
  },
  "two-factor.ts setTwoFactorRequiredAction": {
    async form() {
      return { fields: { required: "0" }, expected: { event: "org.require-2fa", targetType: "organization", targetLabel: "acme" } };
    },
  },
  "sso.ts saveSsoAction": {
    async form() {
      const p = oidc();
      return {
        fields: { issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret, defaultRole: "member", defaultTeam: "" },
        expected: { event: "sso.edit", targetType: "organization", targetLabel: "acme" },
      };
    },
  },
  "sso.ts requireSsoAction": {
    async form(w) {
      await withSso(w);
      return { fields: { required: "0" }, expected: { event: "sso.require", targetType: "organization", targetLabel: "acme" } };
    },
  },
  "sso.ts removeSsoAction": {
    async form(w) {
      await withSso(w);
      return { fields: {}, expected: { event: "sso.disable", targetType: "organization", targetLabel: "acme" } };
    },
  },
  "dead-letters.ts retryDeadLetterAction": {
    async form(w) {
      const id = await deadLetter(w);
      return {
        fields: { id: String(id) },
        expected: { event: "dead-letter.retry", targetType: "dead-letter", targetLabel: `envelope ${id}` },
      };
    },
  },
  "dead-letters.ts deleteDeadLetterAction": {
    async form(w) {
      const id = await deadLetter(w);
      return {
        fields: { id: String(id) },
        expected: { event: "dead-letter.remove", targetType: "dead-letter", targetLabel: `envelope ${id}` },
      };
    },
  },
};

/** A new project of acme with one issue, and that issue's short id. */
async function seededIssue(w: World): Promise<{ p: { id: number; slug: string }; id: number; label: string }> {
  const p = await w.project();
  const [id] = await seedIssues(w.store.db, p.id, [{}]);
  if (id === undefined) throw new Error("no issue seeded");
  return { p, id, label: `${p.slug.toUpperCase()}-1` };
}

const ROUTE_CASES: Record<string, RouteCase> = {
  "PUT /organizations/{}": {
    async request() {
      return { params: [], body: { name: "Acme API" }, expected: { event: "org.edit", targetType: "organization", targetLabel: "acme" } };
    },
  },
  "POST /organizations/{}/members": {
    async request(w) {
      const email = `api-invitee${w.seq()}@example.com`;
      return {
        params: [],
        body: { email, orgRole: "member" },
        expected: { event: "member.invite", targetType: "invitation", targetLabel: email },
      };
    },
  },
  "PUT /organizations/{}/members/{}": {
    async request(w) {
      const m = await w.member();
      return {
        params: [String(m.id)],
        body: { orgRole: "admin" },
        expected: { event: "member.edit", targetType: "member", targetLabel: m.email },
      };
    },
  },
  "DELETE /organizations/{}/members/{}": {
    async request(w) {
      const m = await w.member();
      return { params: [String(m.id)], expected: { event: "member.remove", targetType: "member", targetLabel: m.email } };
    },
  },
  "POST /organizations/{}/members/{}/teams/{}": {
    async request(w) {
      const [m, team] = [await w.member(), await w.team()];
      return {
        params: [String(m.id), team.slug],
        expected: { event: "member.join-team", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "DELETE /organizations/{}/members/{}/teams/{}": {
    async request(w) {
      const [m, team] = [await w.member(), await w.team()];
      await w.ctx.directory.addTeamMember(team.id, m.id, "contributor", Date.now());
      return {
        params: [String(m.id), team.slug],
        expected: { event: "member.leave-team", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "POST /organizations/{}/teams": {
    async request(w) {
      const slug = `api-team-${w.seq()}`;
      return { params: [], body: { slug }, expected: { event: "team.create", targetType: "team", targetLabel: `#${slug}` } };
    },
  },
  "PUT /teams/{}/{}": {
    async request(w) {
      const team = await w.team();
      return {
        params: [team.slug],
        body: { name: "Renamed by API" },
        expected: { event: "team.edit", targetType: "team", targetLabel: `#${team.slug}` },
      };
    },
  },
  "DELETE /teams/{}/{}": {
    async request(w) {
      const team = await w.team();
      return { params: [team.slug], expected: { event: "team.remove", targetType: "team", targetLabel: `#${team.slug}` } };
    },
  },
  "POST /teams/{}/{}/projects": {
    async request(w) {
      const team = await w.team();
      const slug = `api-project-${w.seq()}`;
      return {
        params: [team.slug],
        body: { name: slug, slug },
        expected: { event: "project.create", targetType: "project", targetLabel: slug },
      };
    },
  },
  "PUT /projects/{}/{}": {
    async request(w) {
      const p = await w.project();
      return {
        params: [p.slug],
        body: { name: "Renamed project" },
        expected: { event: "project.edit", targetType: "project", targetLabel: p.slug },
      };
    },
  },
  "DELETE /projects/{}/{}": {
    async request(w) {
      const p = await w.project();
      return { params: [p.slug], expected: { event: "project.remove", targetType: "project", targetLabel: p.slug } };
    },
  },
  // Each bulk case finds the one unresolved issue of acme it seeds (no ids: Sentry's first issues of the search).
  "DELETE /projects/{}/{}/issues": {
    async request(w) {
      const { p, label } = await seededIssue(w);
      return { params: [p.slug], expected: { event: "issue.delete", targetType: "issue", targetLabel: label } };
    },
  },
  "DELETE /organizations/{}/issues": {
    async request(w) {
      const { label } = await seededIssue(w);
      return { params: [], expected: { event: "issue.delete", targetType: "issue", targetLabel: label } };
    },
  },
  "DELETE /organizations/{}/issues/{}": {
    async request(w) {
      const { id, label } = await seededIssue(w);
      return { params: [String(id)], expected: { event: "issue.delete", targetType: "issue", targetLabel: label } };
    },
  },
  "POST /projects/{}/{}/teams/{}": {
    async request(w) {
      const [p, team] = [await w.project(), await w.team()];
      return { params: [p.slug, team.slug], expected: { event: "project.add-team", targetType: "project", targetLabel: p.slug } };
    },
  },
  "DELETE /projects/{}/{}/teams/{}": {
    async request(w) {
      const [p, team] = [await w.project(), await w.team()];
      await addProjectToTeam(w.ctx, await teamInOrg(w.ctx, w.orgId, team.slug), { ...p, organization_id: w.orgId });
      return { params: [p.slug, team.slug], expected: { event: "project.remove-team", targetType: "project", targetLabel: p.slug } };
    },
  },
  "PUT /projects/{}/{}/keys/{}": {
    async request(w) {
      const { p, key } = await keyed(w);
      return {
        params: [p.slug, key.public_key],
        body: { isActive: false },
        expected: { event: "projectkey.edit", targetType: "projectkey", targetLabel: key.label },
      };
    },
  },
  "POST /projects/{}/{}/rules": {
    async request(w) {
      const p = await w.project();
      const body = {
        name: "Every new issue",
        actionMatch: "all",
        filterMatch: "all",
        frequency: 30,
        conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
        filters: [],
        actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "IssueOwners", fallthroughType: "ActiveMembers" }],
      };
      return { params: [p.slug], body, expected: { event: "rule.add", targetType: "rule", targetLabel: "Every new issue" } };
    },
  },
  "PUT /projects/{}/{}/rules/{}": {
    async request(w) {
      const { p, rule } = await ruled(w);
      return {
        params: [p.slug, String(rule.id)],
        body: { status: "disabled" },
        expected: { event: "rule.edit", targetType: "rule", targetLabel: rule.name },
      };
    },
  },
  "DELETE /projects/{}/{}/rules/{}": {
    async request(w) {
      const { p, rule } = await ruled(w);
      return { params: [p.slug, String(rule.id)], expected: { event: "rule.remove", targetType: "rule", targetLabel: rule.name } };
    },
  },
  "POST /organizations/{}/alert-rules": {
    async request(w) {
      const p = await w.project();
      const name = `Error spike ${w.seq()}`;
      return {
        params: [],
        body: metricBody(w, p.slug, name),
        expected: { event: "alertrule.add", targetType: "alertrule", targetLabel: name },
      };
    },
  },
  "PUT /organizations/{}/alert-rules/{}": {
    async request(w) {
      const rule = await metricRule(w);
      return {
        params: [String(rule.id)],
        body: { name: "Renamed spike" },
        expected: { event: "alertrule.edit", targetType: "alertrule", targetLabel: "Renamed spike" },
      };
    },
  },
  "DELETE /organizations/{}/alert-rules/{}": {
    async request(w) {
      const rule = await metricRule(w);
      return { params: [String(rule.id)], expected: { event: "alertrule.remove", targetType: "alertrule", targetLabel: rule.name } };
    },
  },
  "POST /organizations/{}/repos": {
    async request(w) {
      const name = `acme/repo-${w.seq()}`;
      return {
        params: [],
        body: { name, url: `https://github.com/${name}` },
        expected: { event: "repo.add", targetType: "repo", targetLabel: name },
      };
    },
  },
};

async function invite(w: World) {
  const access = await organizationFor(w.ctx, w.owner, "acme");
  const email = `pending${w.seq()}@example.com`;
  return inviteMember({ ctx: w.ctx, input: { access, inviter: w.owner, invitation: { email, role: "member", teams: [] } } });
}

async function keyed(w: World) {
  const p = await w.project();
  const project = await w.store.db.selectFrom("projects").selectAll().where("id", "=", p.id).executeTakeFirstOrThrow();
  const key = await createKey({ ctx: w.ctx, input: { project, label: `key ${w.seq()}` } });
  return { p, key };
}

/** A project with its default alert rule (new projects get one). */
/** The OpenID provider single sign-on's cases set up (one per file, started with the first suite). */
let provider: TestProvider | null = null;
const oidc = (): TestProvider => {
  if (!provider) throw new Error("the OpenID provider is not running");
  return provider;
};

/** Sets up single sign-on for acme through core, so the case's own action has something to change. */
async function withSso(w: World) {
  const p = oidc();
  const access = await organizationFor(w.ctx, w.owner, "acme");
  await saveSsoProvider({
    ctx: w.ctx,
    input: {
      access,
      provider: { issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret, defaultRole: "member", defaultTeam: "" },
    },
  });
}

function metricBody(w: World, project: string, name: string) {
  return {
    name,
    aggregate: "count()",
    timeWindow: 5,
    query: "",
    projects: [project],
    thresholdType: 0,
    triggers: [
      { label: "critical", alertThreshold: 10, actions: [{ type: "email", targetType: "user", targetIdentifier: String(w.owner.id) }] },
    ],
  };
}

async function metricRule(w: World) {
  const p = await w.project();
  const access = await organizationFor(w.ctx, w.owner, "acme");
  return createMetricRule({ ctx: w.ctx, input: { scope: access, body: metricBody(w, p.slug, `Spike ${w.seq()}`), userId: w.owner.id } });
}

async function ruled(w: World) {
  const p = await w.project();
  const rule = await w.store.db.selectFrom("alert_rules").select(["id", "name"]).where("project_id", "=", p.id).executeTakeFirstOrThrow();
  return { p, rule };
}

async function deadLetter(w: World): Promise<number> {
  const p = await w.project();
  const row = await w.store.db
    .insertInto("dead_letters")
    .values({
      project_id: p.id,
      key_id: 0,
      received_at: Date.now(),
      created_at: Date.now(),
      item_types: "event",
      size: 2,
      reason: "test",
      excerpt: "{}",
      body: Buffer.from("{}"),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(DIALECTS)("every audited action and route writes exactly one entry on %s", (dialect) => {
  let store: TestStore;
  let w: World;
  let api: { base: string; close(): Promise<void> };

  beforeAll(async () => {
    registerGroupingStrategy(NEWER_GROUPING);
    provider ??= await startOidcProvider(["http://telltale.test:8000/sso/acme/callback"], {});
    store = await openTestStore(dialect);
    const ctx = testCtx(store);
    session.ctx = ctx;
    const owner = await createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } });
    const org = await createOrganization({ ctx, input: { slug: "acme", owner: owner.email } });
    const { id: tokenId, token } = await createToken({ ctx, input: { user: owner.email } });
    let n = 0;
    const seq = () => ++n;
    w = {
      ctx,
      store,
      orgId: org.id,
      owner,
      tokenId,
      token,
      seq,
      async member(role = "member") {
        const user = await createUser({ ctx, input: { email: `member${seq()}@example.com`, password: "password-123" } });
        await ctx.directory.addMember(org.id, user.id, role, [], Date.now());
        return user;
      },
      async project() {
        const { project } = await createProject({ ctx, input: { org: "acme", slug: `p${seq()}` } });
        return { id: project.id, slug: project.slug };
      },
      async team() {
        const team = await ctx.directory.insertTeam(org.id, { slug: `t${seq()}`, name: "Team" }, null, Date.now());
        if (!team) throw new Error("no team");
        return { id: team.id, slug: team.slug };
      },
    };
    api = await startApiServer(ctx);
  });
  afterAll(async () => {
    await provider?.close();
    provider = null;
    await api?.close();
    await store?.cleanup();
  });

  /** The entries written since `afterId`, in every organization. */
  const entriesSince = (afterId: number) => store.db.selectFrom("audit_log").selectAll().where("id", ">", afterId).orderBy("id").execute();
  const lastId = async () =>
    (
      await store.db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
    )?.id ?? 0;

  it("performs every server action of an audited row and finds one entry with its actor, address and target", async () => {
    const audited = ACTIONS.filter((a) => isAudited(a.permission));
    expect(audited.length).toBeGreaterThan(30);
    const missing = audited.map(actionKey).filter((k) => !(k in ACTION_CASES));
    expect(missing, "no case for these actions of audited rows: add one to ACTION_CASES").toEqual([]);
    const problems: string[] = [];
    for (const registration of audited) {
      const key = actionKey(registration);
      session.user = w.owner;
      const { fields, expected } = await ACTION_CASES[key]!.form(w);
      const before = Number(await lastId());
      const form = new FormData();
      form.set("org", "acme");
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      const module = (await import(join(ROOT, registration.file))) as Record<
        string,
        (prev: FormState, form: FormData) => Promise<FormState>
      >;
      try {
        const state = await module[registration.name]!({}, form);
        if (state.error) problems.push(`${key}: ${state.error}`);
      } catch (error) {
        if ((error as { audit?: string }).audit !== "redirect") problems.push(`${key}: threw ${String(error)}`);
      }
      const entries = await entriesSince(before);
      const actor = expected.actor ?? w.owner;
      const got = entries.map((e) => ({
        organization_id: e.organization_id,
        event: e.event,
        actor_user_id: e.actor_user_id,
        actor_label: e.actor_label,
        actor_token_id: e.actor_token_id,
        ip_address: e.ip_address,
        target_type: e.target_type,
        target_label: e.target_label,
      }));
      const want = {
        organization_id: w.orgId,
        event: expected.event,
        actor_user_id: actor.id,
        actor_label: actor.email,
        actor_token_id: null,
        ip_address: ACTION_IP,
        target_type: expected.targetType,
        target_label: expected.targetLabel,
      };
      if (JSON.stringify(got) !== JSON.stringify([want]))
        problems.push(`${key}: wanted [${JSON.stringify(want)}], got ${JSON.stringify(got)}`);
      if (!auditEvents(registration.permission as Permission).includes(expected.event as never))
        problems.push(`${key}: ${expected.event} is not declared by ${registration.permission}`);
    }
    expect(problems).toEqual([]);
  });

  it("performs every web API route of an audited row and finds one entry with the token, its user, the address and the target", async () => {
    const audited = WRITE_ROUTES.filter((r) => isAudited(r.permission));
    expect(audited.length).toBeGreaterThan(15);
    const missing = audited.map(routeKey).filter((k) => !(k in ROUTE_CASES));
    expect(missing, "no case for these routes of audited rows: add one to ROUTE_CASES").toEqual([]);
    const problems: string[] = [];
    for (const r of audited) {
      const key = routeKey(r);
      const { params, body, expected } = await ROUTE_CASES[key]!.request(w);
      const before = Number(await lastId());
      let i = 0;
      const path = r.path.replace(/\{\}/g, () => encodeURIComponent(i++ === 0 ? "acme" : (params[i - 2] ?? "")));
      const response = await fetch(`${api.base}/api/0${path}/`, {
        method: r.method,
        headers: { authorization: `Bearer ${w.token}`, "content-type": "application/json", [CLIENT_IP_HEADER]: API_IP },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300) problems.push(`${key}: ${response.status} ${await response.text()}`);
      const entries = await entriesSince(before);
      const got = entries.map((e) => [
        e.organization_id,
        e.event,
        e.actor_user_id,
        e.actor_token_id,
        e.ip_address,
        e.target_type,
        e.target_label,
      ]);
      const want = [w.orgId, expected.event, w.owner.id, w.tokenId, API_IP, expected.targetType, expected.targetLabel];
      if (JSON.stringify(got) !== JSON.stringify([want]))
        problems.push(`${key}: wanted [${JSON.stringify(want)}], got ${JSON.stringify(got)}`);
    }
    expect(problems).toEqual([]);
  });

  it("records a failed sign-in of a member, in their organization, and none for an address with no account", async () => {
    const m = await w.member();
    const before = Number(await lastId());
    const { loginAction } = await import("../../app/actions/session");
    for (const email of [m.email, "nobody@example.com"]) {
      const form = new FormData();
      form.set("email", email);
      form.set("password", "wrong-password");
      expect((await loginAction({}, form)).error).toBe("Wrong email or password.");
    }
    const entries = await entriesSince(before);
    expect(entries.map((e) => [e.organization_id, e.event, e.actor_user_id, e.ip_address, e.target_label])).toEqual([
      [w.orgId, "user.login-failed", m.id, ACTION_IP, m.email],
    ]);
  });
});
