import { describe, expect, it } from "vitest";
import { RuleInput, type AlertRule } from "@/src/core/alerts/rule-schema";
import { validate } from "@/src/core/validate";
import { formFieldErrors, formValuesOf, NEW_RULE_VALUES, ruleBodyOf } from "./alert-rule-form";

const EVENT_FREQUENCY = "sentry.rules.conditions.event_frequency.EventFrequencyCondition";
const TAGGED = "sentry.rules.filters.tagged_event.TaggedEventFilter";
const EMAIL = "sentry.mail.actions.NotifyEmailAction";

const stored = (body: unknown): AlertRule => ({
  ...validate(RuleInput, body),
  environment: null,
  id: 9,
  projectId: 1,
  status: "active",
  isDefault: false,
  createdBy: null,
  createdAt: 0,
  updatedAt: 0,
  secret: "0".repeat(64),
});

describe("the rule editor's form and Sentry's rule shape", () => {
  it("turns a rule into form values and back into the same rule", () => {
    const rule = stored({
      name: "Busy checkout",
      actionMatch: "any",
      frequency: 15,
      conditions: [
        { id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" },
        { id: EVENT_FREQUENCY, value: 50, interval: "15m" },
      ],
      filters: [
        { id: TAGGED, key: "customer", match: "eq", value: "acme" },
        { id: "sentry.rules.filters.assigned_to.AssignedToFilter", targetType: "Team", targetIdentifier: 4 },
        { id: "sentry.rules.filters.latest_release.LatestReleaseFilter" },
      ],
      actions: [{ id: EMAIL, targetType: "Member", targetIdentifier: 3 }],
    });
    const values = formValuesOf(rule);
    expect(values).toMatchObject({
      name: "Busy checkout",
      "c.first_seen": "on",
      "c.events": "on",
      "c.events.value": "50",
      "c.events.interval": "15m",
      "f.tag": "on",
      "f.tag.key": "customer",
      "f.assigned.target": "Team:4",
      "f.latest_release": "on",
      "action.target": "Member:3",
    });
    const { body } = ruleBodyOf((name) => values?.[name] ?? "");
    const again = validate(RuleInput, body);
    expect(again.conditions).toEqual(rule.conditions);
    expect(again.filters).toEqual(rule.filters);
    expect(again.actions).toEqual(rule.actions);
    expect([again.name, again.actionMatch, again.frequency]).toEqual(["Busy checkout", "any", 15]);
  });

  it("holds an email, a webhook, a Slack and a Discord post, and a rule without its email", () => {
    const actions = [
      { id: EMAIL, targetType: "Team", targetIdentifier: 2 },
      { id: "telltale.actions.NotifyWebhookAction", url: "https://hooks.example.com/telltale" },
      { id: "telltale.actions.SlackWebhookAction", webhookUrl: "https://hooks.slack.com/services/T0/B0/x" },
      { id: "telltale.actions.DiscordWebhookAction", webhookUrl: "https://discord.com/api/webhooks/1/y" },
    ];
    const conditions = [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }];
    const all = formValuesOf(stored({ name: "Everywhere", conditions, actions }));
    expect(all).toMatchObject({
      "a.email": "on",
      "action.target": "Team:2",
      "a.webhook": "on",
      "a.webhook.url": "https://hooks.example.com/telltale",
      "a.slack": "on",
      "a.slack.webhookUrl": "https://hooks.slack.com/services/T0/B0/x",
      "a.discord": "on",
      "a.discord.webhookUrl": "https://discord.com/api/webhooks/1/y",
    });
    expect(validate(RuleInput, ruleBodyOf((name) => all?.[name] ?? "").body).actions).toEqual(actions);

    const slackOnly = formValuesOf(stored({ name: "Slack", conditions, actions: [actions[2]] }));
    expect(slackOnly?.["a.email"]).toBe("");
    expect(slackOnly?.["a.webhook"]).toBeUndefined();
    expect(validate(RuleInput, ruleBodyOf((name) => slackOnly?.[name] ?? "").body).actions).toEqual([actions[2]]);
    expect(formValuesOf(stored({ name: "Two Slacks", conditions, actions: [actions[2], actions[2]] }))).toBeNull();
  });

  it("puts a web action's URL problem beside its field, and a rule without actions beside Then", () => {
    const posted: Record<string, string> = {
      ...NEW_RULE_VALUES,
      name: "x",
      "c.first_seen": "on",
      "a.slack": "on",
      "a.slack.webhookUrl": "slack",
    };
    const messages = (values: Record<string, string>) => {
      const { body, fieldOf } = ruleBodyOf((name) => values[name] ?? "");
      try {
        validate(RuleInput, body);
        return {};
      } catch (error) {
        return formFieldErrors(
          (error as { details: { fields: Record<string, string> } }).details.fields,
          fieldOf,
          new Set(Object.keys(values)),
        );
      }
    };
    expect(Object.keys(messages(posted))).toEqual(["a.slack.webhookUrl"]);
    expect(Object.keys(messages({ ...posted, "a.email": "", "a.slack": "" }))).toEqual(["actions"]);
  });

  it("says when the form cannot hold a rule: two entries of a kind", () => {
    const rule = stored({
      name: "Two tags",
      conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: "1h" }],
      filters: [
        { id: TAGGED, key: "a", match: "eq", value: "1" },
        { id: TAGGED, key: "b", match: "eq", value: "2" },
      ],
      actions: [{ id: EMAIL, targetType: "IssueOwners" }],
    });
    expect(formValuesOf(rule)).toBeNull();
  });

  it("puts each validation message beside the field it is about", () => {
    const posted = { ...NEW_RULE_VALUES, name: "x", "c.regression": "on", "c.users": "on", "c.users.value": "-3", "f.tag": "on" };
    const { body, fieldOf } = ruleBodyOf((name) => posted[name as keyof typeof posted] ?? "");
    let fields: Record<string, string> = {};
    try {
      validate(RuleInput, body);
    } catch (error) {
      fields = (error as { details: { fields: Record<string, string> } }).details.fields;
    }
    expect(formFieldErrors(fields, fieldOf, new Set(Object.keys(posted).concat("f.tag.key", "f.tag.value")))).toEqual({
      "c.users.value": "value is 0 or more",
      "f.tag.key": "key is the tag's name",
    });
  });
});
