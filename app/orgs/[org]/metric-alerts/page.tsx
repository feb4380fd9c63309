import Link from "next/link";
import { describeValue, windowWords } from "@/src/core/metric-alerts/email";
import { listMetricRules, RECENT_EVALUATIONS } from "@/src/core/metric-alerts/manage";
import { AGGREGATES, TIME_WINDOWS, triggerOf, type MetricRule } from "@/src/core/metric-alerts/schema";
import { listProjects } from "@/src/core/projects/queries";
import { roleAllows } from "@/src/core/permissions/table";
import { deleteMetricRuleAction } from "../../../actions/metric-alerts";
import { ActionForm } from "../../../components/action-form";
import { PageCrumbs } from "../../../components/shell/page-crumbs";
import { When } from "../../../components/when";
import { ctx } from "../../../lib/app-runtime";
import { loadOrg } from "../../../lib/loaders";
import { MetricRuleForm, type RuleFormChoices, type RuleFormValues } from "./metric-rule-form";
import "./metric-alerts.css";

export const metadata = { title: "Metric alerts" };

const STATE_WORDS = { ok: "OK", warning: "Warning", critical: "Critical" } as const;
const CHANGE_WORDS = { critical: "became critical", warning: "became a warning", resolved: "resolved" } as const;

function thresholds(rule: MetricRule): string {
  const word = rule.thresholdType === "above" ? "above" : "below";
  const parts = rule.triggers.map((t) => `${STATE_WORDS[t.label]} ${word} ${t.alertThreshold}`);
  if (rule.resolveThreshold !== null) parts.push(`resolved ${rule.thresholdType === "above" ? "below" : "above"} ${rule.resolveThreshold}`);
  return parts.join(" · ");
}

function formValues(rule: MetricRule | null, firstProject: string | null): RuleFormValues {
  if (!rule)
    return {
      ruleId: null,
      name: "",
      aggregate: "count()",
      timeWindow: 5,
      query: "",
      environment: "",
      projects: firstProject ? [firstProject] : [],
      thresholdType: 0,
      critical: "",
      warning: "",
      resolve: "",
      target: "",
    };
  const action = triggerOf(rule, "critical")?.actions[0] ?? triggerOf(rule, "warning")?.actions[0];
  return {
    ruleId: rule.id,
    name: rule.name,
    aggregate: rule.aggregate,
    timeWindow: rule.timeWindow,
    query: rule.query,
    environment: rule.environment ?? "",
    projects: rule.projects.map((p) => p.slug),
    thresholdType: rule.thresholdType === "below" ? 1 : 0,
    critical: String(triggerOf(rule, "critical")?.alertThreshold ?? ""),
    warning: String(triggerOf(rule, "warning")?.alertThreshold ?? ""),
    resolve: rule.resolveThreshold === null ? "" : String(rule.resolveThreshold),
    target: action ? `${action.targetType}:${action.targetIdentifier}` : "",
  };
}

/**
 * The organization's metric alerts (decision 0020): each rule in words with its state
 * and its latest evaluations, and a form to create one or edit the one named by `?rule=`.
 */
export default async function MetricAlertsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<{ rule?: string }>;
}) {
  const { org: slug } = await params;
  const { rule: selected } = await searchParams;
  const access = await loadOrg("alert:read", slug, `/orgs/${slug}/metric-alerts`);
  const { org, role } = access;
  const c = ctx();
  const [rules, projects] = await Promise.all([listMetricRules(c, access), listProjects(c, access)]);
  const evaluations = new Map(
    await Promise.all(rules.map(async (r) => [r.id, await c.metricAlerts.evaluations(r.id, RECENT_EVALUATIONS)] as const)),
  );
  const manage = roleAllows(role, "alert:write");
  const editing = rules.find((r) => String(r.id) === selected) ?? null;
  const choices: RuleFormChoices | null = manage
    ? {
        projects: projects.map((p) => ({ slug: p.slug, name: p.name })),
        teams: (await c.directory.teams(org.id)).map((t) => ({ id: t.team.id, slug: t.team.slug })),
        members: (await c.directory.members(org.id)).map((m) => ({ userId: m.userId, email: m.email })),
        aggregates: Object.entries(AGGREGATES).map(([value, label]) => ({ value, label })),
        windows: TIME_WINDOWS.map((w) => ({ value: w, label: windowWords(w) })),
      }
    : null;
  const api = `/api/0/organizations/${org.slug}/alert-rules/`;

  return (
    <main className="metric-alerts">
      <PageCrumbs items={[{ label: org.name, href: `/orgs/${org.slug}` }, { label: "Metric alerts" }]} />
      <h1>Metric alerts</h1>
      {c.mailer === null && (
        <p className="notice" data-testid="no-smtp">
          No SMTP server is configured (<code>TELLTALE_SMTP_URL</code>): rules are evaluated and their changes recorded, but no email is
          sent.
        </p>
      )}
      <p className="muted">
        Each rule counts the errors, or the users they affected, in its projects over a window, every minute, and emails when the count
        crosses a threshold and when it recovers. Rules are also written in Sentry&apos;s alert-rule shape through the web API (
        <a href={api}>{api}</a>).
      </p>
      {rules.length === 0 && (
        <div className="panel">
          <p className="muted">This organization has no metric alert rules yet.</p>
        </div>
      )}
      {rules.map((rule) => {
        const evals = evaluations.get(rule.id) ?? [];
        const latest = evals[0];
        return (
          <section
            key={rule.id}
            className={`panel metric-rule${String(rule.id) === selected ? " selected" : ""}`}
            data-testid="metric-rule"
            aria-label={rule.name}
          >
            <div className="metric-rule-head">
              <h2>{rule.name}</h2>
              <span className={`metric-state ${rule.state}`} data-testid="metric-state">
                {rule.status === "disabled" ? "Off" : STATE_WORDS[rule.state]}
              </span>
            </div>
            <p className="metric-rule-now">
              {latest ? (
                <>
                  {describeValue({ aggregate: rule.aggregate, value: latest.value, timeWindow: rule.timeWindow })}, evaluated{" "}
                  <When ms={latest.at} />
                  {rule.state !== "ok" && (
                    <>
                      {" "}
                      · {STATE_WORDS[rule.state].toLowerCase()} since <When ms={rule.stateSince} />
                    </>
                  )}
                </>
              ) : (
                <span className="muted">Not evaluated yet: the first evaluation comes within a minute.</span>
              )}
            </p>
            <dl className="metric-facts">
              <dt>Metric</dt>
              <dd>
                {AGGREGATES[rule.aggregate]} over the last {windowWords(rule.timeWindow)}
              </dd>
              <dt>Projects</dt>
              <dd>{rule.projects.map((p) => p.slug).join(", ") || "none (deleted)"}</dd>
              <dt>Filter</dt>
              <dd>
                {rule.query || "all errors"}
                {rule.environment && ` in ${rule.environment}`}
              </dd>
              <dt>Thresholds</dt>
              <dd>{thresholds(rule)}</dd>
            </dl>
            {evals.length > 0 && (
              <details className="metric-evaluations">
                <summary>Latest evaluations</summary>
                <div className="table-scroll">
                  <table data-testid="metric-evaluations">
                    <thead>
                      <tr>
                        <th>When</th>
                        <th>Value</th>
                        <th>State</th>
                      </tr>
                    </thead>
                    <tbody>
                      {evals.slice(0, 10).map((e) => (
                        <tr key={e.minute}>
                          <td>
                            <When ms={e.at} />
                          </td>
                          <td>{e.value}</td>
                          <td>
                            {STATE_WORDS[e.state]}
                            {e.transition && <span className="muted-small"> · {CHANGE_WORDS[e.transition]}</span>}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
            )}
            {manage && (
              <div className="row metric-rule-actions">
                <Link href={`/orgs/${org.slug}/metric-alerts?rule=${rule.id}#rule-form`}>Edit</Link>
                <ActionForm
                  action={deleteMetricRuleAction}
                  hidden={{ org: org.slug, ruleId: rule.id }}
                  submit="Delete"
                  label={`Delete ${rule.name}`}
                  danger
                />
              </div>
            )}
          </section>
        );
      })}
      {choices && (
        <section className="panel" id="rule-form">
          <h2 style={{ marginTop: 0 }}>{editing ? `Edit “${editing.name}”` : "New metric alert rule"}</h2>
          {editing && (
            <p className="muted">
              <Link href={`/orgs/${org.slug}/metric-alerts#rule-form`}>Create a new rule instead</Link>
            </p>
          )}
          <MetricRuleForm
            key={editing?.id ?? "new"}
            org={org.slug}
            values={formValues(editing, projects[0]?.slug ?? null)}
            choices={choices}
          />
        </section>
      )}
    </main>
  );
}
