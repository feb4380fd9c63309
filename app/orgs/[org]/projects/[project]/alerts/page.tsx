import Link from "next/link";
import { joinByMatch, recentNotifications } from "@/src/core/alerts/history";
import { listRules } from "@/src/core/alerts/manage-rules";
import { describeAction, describeCondition, describeFilter, EMAIL_ACTION, maskedUrl, type AlertRule } from "@/src/core/alerts/rule-schema";
import { roleAllows } from "@/src/core/permissions/table";
import { LocalhostLinksWarning } from "../../../../../components/email-warnings";
import { ProjectPageHeading } from "../../../../../components/shell/page-crumbs";
import { When } from "../../../../../components/when";
import { ctx } from "../../../../../lib/app-runtime";
import { exactUtc } from "../../../../../lib/dates";
import { loadProject } from "../../../../../lib/loaders";
import { formValuesOf, NEW_RULE_VALUES } from "../../../../../lib/alert-rule-form";
import { DefaultRuleOffer, DeleteRuleForm } from "./rule-forms";
import { RuleEditor, type Choice } from "./rule-editor";
import { RuleStatusForm } from "./rule-status-form";
import { TestRuleForm } from "./test-rule-form";

export async function generateMetadata({ params }: { params: Promise<{ project: string }> }) {
  return { title: `${(await params).project} alerts` };
}

const KINDS: Record<string, string> = {
  created: "New issue",
  regressed: "Regression",
  escalating: "Escalating",
  seen: "Frequency",
  unignored: "Ignore ended",
  test: "Test of the rule",
  assigned: "Assigned",
  commented: "Comment",
  resolved: "Resolved",
};
const CHANNELS: Record<string, string> = { email: "Email", webhook: "Webhook", slack: "Slack", discord: "Discord" };
const STATUS: Record<string, string> = { pending: "to be sent", sent: "sent", failed: "failed", not_sent: "not sent" };

export default async function AlertsPage({ params }: { params: Promise<{ org: string; project: string }> }) {
  const { org: orgSlug, project: projectSlug } = await params;
  const { org, project, role } = await loadProject("alert:read", orgSlug, projectSlug, `/orgs/${orgSlug}/projects/${projectSlug}/alerts`);
  const [rules, notifications] = await Promise.all([listRules(ctx(), project), recentNotifications(ctx(), project.id)]);
  const manage = roleAllows(role, "alert:write");
  const test = roleAllows(role, "alert:test");
  const smtp = ctx().mailer !== null;
  const api = `/api/0/projects/${org.slug}/${project.slug}/rules/`;
  // Who a rule may email, and whom an issue may be assigned to: the organization's teams and members.
  const [teams, members] = manage ? await Promise.all([ctx().directory.teams(org.id), ctx().directory.members(org.id)]) : [[], []];
  const teamChoices: Choice[] = teams.map((t) => ({ value: `Team:${t.team.id}`, label: `team #${t.team.slug}` }));
  const memberChoices: Choice[] = members.map((m) => ({ value: `Member:${m.userId}`, label: m.name ? `${m.name} (${m.email})` : m.email }));
  const targets = [{ value: "IssueOwners", label: "the project's members (issue owners)" }, ...teamChoices, ...memberChoices];
  const assignees = [{ value: "Unassigned", label: "nobody (unassigned)" }, ...teamChoices, ...memberChoices];

  return (
    <main>
      <ProjectPageHeading org={org} project={project} page="Alerts" />
      {!smtp && (
        <p className="notice" data-testid="no-smtp">
          No SMTP server is configured (<code>TELLTALE_SMTP_URL</code>): notifications are listed below but not sent.
        </p>
      )}
      <LocalhostLinksWarning />
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Issue alert rules</h2>
        <p className="muted">
          Rules can also be written in Sentry&apos;s rule shape through the web API (<a href={api}>{api}</a>). Issue owners are not
          supported yet: a rule that emails issue owners emails the members of the project&apos;s teams.
        </p>
        {manage && (
          <details className="rule-create" data-testid="new-rule">
            <summary>Create a rule</summary>
            <RuleEditor org={org.slug} project={project.slug} values={NEW_RULE_VALUES} targets={targets} assignees={assignees} />
          </details>
        )}
        {rules.length === 0 ? (
          <div data-testid="no-rules">
            <p className="muted">This project has no alert rules.</p>
            {manage && org.is_internal !== 1 && <DefaultRuleOffer org={org.slug} project={project.slug} />}
          </div>
        ) : (
          rules.map((r) => (
            <article key={r.id} data-testid="rule" style={{ borderTop: "1px solid var(--line)", padding: "0.75rem 0" }}>
              <div className="row" style={{ justifyContent: "space-between" }}>
                <strong>{r.name}</strong>
                <div className="row">
                  <span className={`badge ${r.status === "active" ? "on" : "off"}`}>{r.status === "active" ? "on" : "off"}</span>
                  {test && <TestRuleForm org={org.slug} project={project.slug} ruleId={r.id} />}
                  {manage && <RuleStatusForm org={org.slug} project={project.slug} ruleId={r.id} active={r.status === "active"} />}
                </div>
              </div>
              <table style={{ marginTop: "0.5rem" }}>
                <tbody>
                  <tr>
                    <th scope="row">When</th>
                    <td>
                      {joinByMatch(r.conditions.map(describeCondition), r.actionMatch)}
                      {r.environment && ` (in ${r.environment})`}
                    </td>
                  </tr>
                  <tr>
                    <th scope="row">If</th>
                    <td>{r.filters.length ? joinByMatch(r.filters.map(describeFilter), r.filterMatch) : "always"}</td>
                  </tr>
                  <tr>
                    <th scope="row">Then</th>
                    <td>{r.actions.map(describeAction).join("; ")}</td>
                  </tr>
                  <tr>
                    <th scope="row">At most</th>
                    <td>once per issue every {r.frequency} minutes</td>
                  </tr>
                  {manage && r.actions.some((a) => a.id !== EMAIL_ACTION) && (
                    <tr>
                      <th scope="row">Signing secret</th>
                      <td>
                        <details data-testid="rule-secret">
                          <summary className="muted">Show the secret its webhooks are signed with</summary>
                          <code style={{ wordBreak: "break-all" }}>{r.secret}</code>
                        </details>
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
              {manage && <RuleManagement org={org.slug} project={project.slug} rule={r} targets={targets} assignees={assignees} />}
            </article>
          ))
        )}
      </section>
      <section className="panel">
        <h2 style={{ marginTop: 0 }}>Recent notifications</h2>
        {notifications.length === 0 ? (
          <p className="muted">No rule has fired yet.</p>
        ) : (
          <div className="table-scroll">
            <table data-testid="notifications" className="stack-narrow">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Issue</th>
                  <th>To</th>
                  <th>Status</th>
                  <th>Tries</th>
                </tr>
              </thead>
              <tbody>
                {notifications.map((n) => (
                  <tr key={n.id}>
                    <td style={{ whiteSpace: "nowrap" }}>
                      <When ms={n.createdAt} />
                    </td>
                    <td>
                      <div className="muted-small">{KINDS[n.changeKind] ?? n.changeKind}</div>
                      {n.issueTitle === null ? (
                        <span className="muted">deleted</span>
                      ) : (
                        <Link href={`/orgs/${org.slug}/issues/${n.issueId}`}>{n.issueTitle}</Link>
                      )}
                    </td>
                    <td>
                      <div className="muted-small">{CHANNELS[n.channel] ?? n.channel}</div>
                      <span style={{ wordBreak: "break-all" }}>{n.channel === "email" ? n.target : maskedUrl(n.target)}</span>
                    </td>
                    <td data-label="Status">
                      {STATUS[n.status] ?? n.status}
                      {n.lastError && <div className="muted-small">{n.lastError}</div>}
                      {n.status === "pending" && n.attempts > 0 && (
                        <div className="muted-small">next try at {exactUtc(n.nextAttemptAt)}</div>
                      )}
                      {n.tries.length > 0 && (
                        <details className="attempts" data-testid="attempts">
                          <summary className="muted-small">
                            {n.tries.length} attempt{n.tries.length === 1 ? "" : "s"}
                          </summary>
                          <ol>
                            {n.tries.map((a) => (
                              <li key={a.attempt}>
                                <When ms={a.at} /> · {STATUS[a.status] ?? a.status}
                                {a.statusCode != null && <> · HTTP {a.statusCode}</>}
                                {a.durationMs != null && <> · {(a.durationMs / 1000).toFixed(1)} s</>}
                                {a.error && a.statusCode == null && <div className="muted-small">{a.error}</div>}
                                {a.response && <pre className="attempt-answer">{a.response}</pre>}
                              </li>
                            ))}
                          </ol>
                        </details>
                      )}
                    </td>
                    <td data-label="Tries">{n.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

/** Edit (when the form can hold the rule) and delete, under a rule. */
function RuleManagement(props: { org: string; project: string; rule: AlertRule; targets: Choice[]; assignees: Choice[] }) {
  const values = formValuesOf(props.rule);
  return (
    <div className="rule-manage">
      {values ? (
        <details data-testid="edit-rule">
          <summary>Edit</summary>
          <RuleEditor
            org={props.org}
            project={props.project}
            ruleId={props.rule.id}
            values={values}
            targets={props.targets}
            assignees={props.assignees}
          />
        </details>
      ) : (
        <p className="muted-small">
          This rule has more entries of a kind than the form shows (two emails, two tag filters): change it through the web API.
        </p>
      )}
      <DeleteRuleForm org={props.org} project={props.project} ruleId={props.rule.id} name={props.rule.name} />
    </div>
  );
}
