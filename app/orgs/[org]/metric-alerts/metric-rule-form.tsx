"use client";

import { useActionState } from "react";
import { saveMetricRuleAction } from "../../../actions/metric-alerts";
import { FormMessages, Submit } from "../../../components/form-parts";
import type { FormState } from "../../../lib/forms";

/** What the form starts from: an existing rule's values, or a new rule's defaults. */
export interface RuleFormValues {
  ruleId: number | null;
  name: string;
  aggregate: string;
  timeWindow: number;
  query: string;
  environment: string;
  projects: string[];
  thresholdType: 0 | 1;
  critical: string;
  warning: string;
  resolve: string;
  /** `team:<id>` or `user:<id>`. */
  target: string;
}

export interface RuleFormChoices {
  projects: { slug: string; name: string }[];
  teams: { id: number; slug: string }[];
  members: { userId: number; email: string }[];
  aggregates: { value: string; label: string }[];
  windows: { value: number; label: string }[];
}

/** Creates or edits a metric alert rule; the server validates it as the API does and says what is wrong. */
export function MetricRuleForm({ org, values, choices }: { org: string; values: RuleFormValues; choices: RuleFormChoices }) {
  const [state, action] = useActionState<FormState, FormData>(saveMetricRuleAction, {});
  // After a refusal, text fields keep what was typed (React resets a form once its action ran).
  const typed = (name: keyof RuleFormValues & string) =>
    state.error ? (state.values?.[name] ?? String(values[name])) : String(values[name]);
  const version = state.error ? JSON.stringify(state.values ?? {}) : "";
  return (
    <form action={action} data-testid="metric-rule-form" className="metric-form" key={version}>
      <input type="hidden" name="org" value={org} />
      <input type="hidden" name="ruleId" value={values.ruleId ?? ""} />
      <label>
        Name
        <input name="name" defaultValue={typed("name")} required maxLength={256} placeholder="Too many errors in checkout" />
      </label>
      <div className="metric-form-grid">
        <label>
          Metric
          <select name="aggregate" defaultValue={values.aggregate}>
            {choices.aggregates.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Over the last
          <select name="timeWindow" defaultValue={String(values.timeWindow)}>
            {choices.windows.map((w) => (
              <option key={w.value} value={w.value}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <fieldset className="metric-projects">
        <legend>Projects</legend>
        {choices.projects.map((p) => (
          <label key={p.slug} className="check">
            <input type="checkbox" name="projects" value={p.slug} defaultChecked={values.projects.includes(p.slug)} />
            {p.name}
          </label>
        ))}
      </fieldset>
      <div className="metric-form-grid">
        <label>
          Environment
          <input name="environment" defaultValue={typed("environment")} maxLength={64} placeholder="all environments" />
        </label>
        <label>
          Filter
          <input name="query" defaultValue={typed("query")} maxLength={500} placeholder="level:error" />
          <span className="hint">level: and environment: terms, as in the issue search</span>
        </label>
      </div>
      <div className="metric-form-grid three">
        <label>
          Alert when the value is
          <select name="thresholdType" defaultValue={String(values.thresholdType)}>
            <option value="0">above</option>
            <option value="1">below</option>
          </select>
        </label>
        <label>
          Critical at
          <input name="critical" inputMode="decimal" defaultValue={typed("critical")} required maxLength={14} />
        </label>
        <label>
          Warning at
          <input name="warning" inputMode="decimal" defaultValue={typed("warning")} maxLength={14} placeholder="none" />
        </label>
      </div>
      <div className="metric-form-grid">
        <label>
          Resolved at
          <input
            name="resolve"
            inputMode="decimal"
            defaultValue={typed("resolve")}
            maxLength={14}
            placeholder="when no longer past a threshold"
          />
        </label>
        <label>
          Email
          <select name="target" defaultValue={values.target}>
            <option value="">nobody (record only)</option>
            <optgroup label="Teams">
              {choices.teams.map((t) => (
                <option key={t.id} value={`team:${t.id}`}>
                  #{t.slug}
                </option>
              ))}
            </optgroup>
            <optgroup label="Members">
              {choices.members.map((m) => (
                <option key={m.userId} value={`user:${m.userId}`}>
                  {m.email}
                </option>
              ))}
            </optgroup>
          </select>
        </label>
      </div>
      <Submit>{values.ruleId ? "Save rule" : "Create rule"}</Submit>
      <FormMessages state={state} />
    </form>
  );
}
