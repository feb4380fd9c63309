"use client";

import { useActionState } from "react";
import { saveAlertRuleAction } from "../../../../../actions/alerts";
import { FormMessages, Submit, submitKeepingValues } from "../../../../../components/form-parts";
import type { FormValues } from "../../../../../lib/alert-rule-form";
import type { FormState } from "../../../../../lib/forms";

export interface Choice {
  value: string;
  label: string;
}

const INTERVALS: Choice[] = [
  { value: "1m", label: "one minute" },
  { value: "5m", label: "5 minutes" },
  { value: "15m", label: "15 minutes" },
  { value: "1h", label: "one hour" },
  { value: "1d", label: "one day" },
  { value: "1w", label: "one week" },
  { value: "30d", label: "30 days" },
];
const MATCHES: Choice[] = [
  { value: "any", label: "any" },
  { value: "all", label: "all" },
  { value: "none", label: "none" },
];
const LEVEL_MATCHES: Choice[] = [
  { value: "gte", label: "at least" },
  { value: "eq", label: "exactly" },
  { value: "lte", label: "at most" },
];
const LEVELS: Choice[] = [
  { value: "50", label: "fatal" },
  { value: "40", label: "error" },
  { value: "30", label: "warning" },
  { value: "20", label: "info" },
  { value: "10", label: "debug" },
];
const TAG_MATCHES: Choice[] = [
  { value: "eq", label: "equals" },
  { value: "ne", label: "does not equal" },
  { value: "sw", label: "starts with" },
  { value: "ew", label: "ends with" },
  { value: "co", label: "contains" },
  { value: "nc", label: "does not contain" },
  { value: "is", label: "is set" },
  { value: "ns", label: "is not set" },
];
const AGE_UNITS: Choice[] = ["minute", "hour", "day", "week"].map((u) => ({ value: u, label: `${u}s` }));

/**
 * The editor's pieces, each reading the form's values and the server's per-field messages. Plain
 * functions, not components: the inputs stay the same elements across renders, so what was typed
 * stays when the server answers.
 */
function fieldsOf(values: FormValues, state: FormState, idPrefix: string) {
  const current = (name: string) => state.values?.[name] ?? values[name] ?? "";
  const id = (name: string) => `${idPrefix}-${name.replaceAll(".", "-")}`;
  const invalid = (name: string) =>
    state.fieldErrors?.[name] ? { "aria-invalid": true as const, "aria-describedby": `${id(name)}-error` } : {};
  const error = (name: string) =>
    state.fieldErrors?.[name] ? (
      <span className="field-error" id={`${id(name)}-error`} data-testid={`error-${name}`}>
        {state.fieldErrors[name]}
      </span>
    ) : null;
  const select = (name: string, label: string, choices: Choice[]) => (
    <select name={name} defaultValue={current(name)} aria-label={label} {...invalid(name)}>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  );
  const text = (name: string, label: string, size: number) => (
    <input name={name} defaultValue={current(name)} aria-label={label} size={size} {...invalid(name)} />
  );
  const url = (name: string, label: string, placeholder: string) => (
    <input
      name={name}
      type="url"
      className="rule-url"
      defaultValue={current(name)}
      aria-label={label}
      placeholder={placeholder}
      autoComplete="off"
      {...invalid(name)}
    />
  );
  const check = (name: string, children: React.ReactNode) => (
    <div className="rule-line">
      <input type="checkbox" name={name} id={id(name)} defaultChecked={current(name) === "on"} {...invalid(name)} />
      {children}
      {error(name)}
    </div>
  );
  return { current, id, invalid, error, select, text, url, check };
}

/**
 * Creates a rule, or edits one (`ruleId`), in Sentry's terms: conditions under "When" with
 * actionMatch, filters under "If" with filterMatch, an email and web posts under "Then". The server checks it
 * all and answers with each problem beside its field; what was typed stays (the form is submitted
 * in a transition, which React does not follow with a reset).
 */
export function RuleEditor(props: {
  org: string;
  project: string;
  ruleId?: number;
  values: FormValues;
  targets: Choice[];
  assignees: Choice[];
}) {
  const [state, action] = useActionState<FormState, FormData>(saveAlertRuleAction, {});
  const prefix = `rule-${props.ruleId ?? "new"}`;
  const { id, invalid, error, select, text, url, check, current } = fieldsOf(props.values, state, prefix);
  return (
    <form action={action} onSubmit={submitKeepingValues(action)} className="rule-editor" data-testid="rule-editor" noValidate>
      <input type="hidden" name="org" value={props.org} />
      <input type="hidden" name="project" value={props.project} />
      {props.ruleId !== undefined && <input type="hidden" name="ruleId" value={props.ruleId} />}
      <div className="rule-editor-top">
        <label htmlFor={id("name")}>
          Name
          <input id={id("name")} name="name" defaultValue={current("name")} {...invalid("name")} />
          {error("name")}
        </label>
        <label htmlFor={id("environment")}>
          Environment <span className="hint">Empty for every environment</span>
          <input id={id("environment")} name="environment" defaultValue={current("environment")} {...invalid("environment")} />
          {error("environment")}
        </label>
        <label htmlFor={id("frequency")}>
          At most once per issue every
          <span className="rule-line">
            <input
              id={id("frequency")}
              name="frequency"
              inputMode="numeric"
              size={6}
              defaultValue={current("frequency")}
              {...invalid("frequency")}
            />
            minutes
          </span>
          {error("frequency")}
        </label>
      </div>
      <fieldset>
        <legend>When</legend>
        <div className="rule-line">{select("actionMatch", "How many conditions", MATCHES)} of these happen:</div>
        {error("conditions")}
        {check(
          "c.first_seen",
          <>
            <label htmlFor={id("c.first_seen")}>A new issue is created</label>
          </>,
        )}
        {check(
          "c.regression",
          <>
            <label htmlFor={id("c.regression")}>The issue changes state from resolved to unresolved</label>
          </>,
        )}
        {check(
          "c.reappeared",
          <>
            <label htmlFor={id("c.reappeared")}>The issue changes state from ignored to escalating</label>
          </>,
        )}
        {check(
          "c.events",
          <>
            <label htmlFor={id("c.events")}>The issue is seen more than</label>
            {text("c.events.value", "Number of events", 6)} times in
            {select("c.events.interval", "Events interval", INTERVALS)}
            {error("c.events.value")}
          </>,
        )}
        {check(
          "c.users",
          <>
            <label htmlFor={id("c.users")}>The issue is seen by more than</label>
            {text("c.users.value", "Number of users", 6)} users in
            {select("c.users.interval", "Users interval", INTERVALS)}
            {error("c.users.value")}
          </>,
        )}
      </fieldset>
      <fieldset>
        <legend>If</legend>
        <div className="rule-line">{select("filterMatch", "How many filters", MATCHES)} of these hold (none ticked: always):</div>
        {check(
          "f.level",
          <>
            <label htmlFor={id("f.level")}>The event&apos;s level is</label>
            {select("f.level.match", "Level comparison", LEVEL_MATCHES)}
            {select("f.level.level", "Level", LEVELS)}
          </>,
        )}
        {check(
          "f.tag",
          <>
            <label htmlFor={id("f.tag")}>The event&apos;s tag</label>
            {text("f.tag.key", "Tag name", 14)}
            {select("f.tag.match", "Tag comparison", TAG_MATCHES)}
            {text("f.tag.value", "Tag value", 14)}
            {error("f.tag.key")}
            {error("f.tag.value")}
          </>,
        )}
        {check(
          "f.age",
          <>
            <label htmlFor={id("f.age")}>The issue is</label>
            {select("f.age.comparison_type", "Older or newer", [
              { value: "older", label: "older" },
              { value: "newer", label: "newer" },
            ])}
            than
            {text("f.age.value", "Age", 4)}
            {select("f.age.time", "Age unit", AGE_UNITS)}
            {error("f.age.value")}
          </>,
        )}
        {check(
          "f.assigned",
          <>
            <label htmlFor={id("f.assigned")}>The issue is assigned to</label>
            {select("f.assigned.target", "Assignee", props.assignees)}
          </>,
        )}
        {check(
          "f.latest_release",
          <>
            <label htmlFor={id("f.latest_release")}>The event is from the latest release</label>
          </>,
        )}
      </fieldset>
      <fieldset>
        <legend>Then</legend>
        {error("actions")}
        {check(
          "a.email",
          <>
            <label htmlFor={id("a.email")}>Send an email to</label>
            {select("action.target", "Email recipients", props.targets)}
            {error("action.target")}
          </>,
        )}
        {check(
          "a.webhook",
          <>
            <label htmlFor={id("a.webhook")}>Send a signed webhook to</label>
            {url("a.webhook.url", "Webhook URL", "https://example.com/hooks/telltale")}
            {error("a.webhook.url")}
          </>,
        )}
        {check(
          "a.slack",
          <>
            <label htmlFor={id("a.slack")}>Post to Slack through the incoming webhook</label>
            {url("a.slack.webhookUrl", "Slack webhook URL", "https://hooks.slack.com/services/…")}
            {error("a.slack.webhookUrl")}
          </>,
        )}
        {check(
          "a.discord",
          <>
            <label htmlFor={id("a.discord")}>Post to Discord through the webhook</label>
            {url("a.discord.webhookUrl", "Discord webhook URL", "https://discord.com/api/webhooks/…")}
            {error("a.discord.webhookUrl")}
          </>,
        )}
      </fieldset>
      <Submit pendingText="Saving…">{props.ruleId === undefined ? "Create rule" : "Save rule"}</Submit>
      <FormMessages state={state} />
    </form>
  );
}
