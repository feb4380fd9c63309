/**
 * Issue alert rules in Sentry's shape (https://docs.sentry.io/api/alerts/create-an-issue-alert-rule-for-a-project/):
 * `conditions`, `filters` and `actions` are lists of `{ id, ...fields }`, with Sentry's ids, so a
 * rule written for Sentry's API works here unchanged. Unknown ids are refused by name.
 */
import { z } from "zod";
import { describeFrequency, FREQUENCY_IDS, FrequencyCondition, isFrequency } from "./frequency-conditions";
import {
  AgeFilter,
  AssignedFilter,
  describeIssueFilter,
  ISSUE_FILTER_IDS,
  LatestReleaseFilter,
  TaggedFilter,
  type IssueFilter,
} from "./issue-filters";

export const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
export const REGRESSION = "sentry.rules.conditions.regression_event.RegressionEventCondition";
export const REAPPEARED = "sentry.rules.conditions.reappeared_event.ReappearedEventCondition";
export const LEVEL_FILTER = "sentry.rules.filters.level.LevelFilter";
export const EMAIL_ACTION = "sentry.mail.actions.NotifyEmailAction";
/** Telltale's own action ids: Sentry's webhook, Slack and Discord actions need its integrations (decision 0018). */
export const WEBHOOK_ACTION = "telltale.actions.NotifyWebhookAction";
export const SLACK_ACTION = "telltale.actions.SlackWebhookAction";
export const DISCORD_ACTION = "telltale.actions.DiscordWebhookAction";

/** The issue change (src/core/outbox/changes.ts) each condition is about, and its words as Sentry's UI says them. */
export const CONDITIONS = {
  [FIRST_SEEN]: { kind: "created", label: "A new issue is created" },
  [REGRESSION]: { kind: "regressed", label: "The issue changes state from resolved to unresolved" },
  [REAPPEARED]: { kind: "escalating", label: "The issue changes state from ignored to escalating" },
} as const;
export type ConditionId = keyof typeof CONDITIONS;

/** Sentry's numeric levels (LevelFilter's `level` is one of these, as a string). */
export const LEVELS = { fatal: 50, error: 40, warning: 30, info: 20, debug: 10 } as const;
const LEVEL_NAMES = Object.fromEntries(Object.entries(LEVELS).map(([k, v]) => [String(v), k])) as Record<string, string>;
export const levelName = (level: string): string => LEVEL_NAMES[level] ?? level;

const Match = z.enum(["all", "any", "none"]);
export type Match = z.infer<typeof Match>;

const StateCondition = z.object({ id: z.enum([FIRST_SEEN, REGRESSION, REAPPEARED]) });
export type StateCondition = z.infer<typeof StateCondition>;
const Condition = z.discriminatedUnion("id", [StateCondition, FrequencyCondition]);
export type Condition = z.output<typeof Condition>;

const Level = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === "number" ? String(v) : v in LEVELS ? String(LEVELS[v as keyof typeof LEVELS]) : v))
  .pipe(
    z.enum(Object.values(LEVELS).map(String) as [string, ...string[]], { error: "level is one of 50, 40, 30, 20, 10 (fatal … debug)" }),
  );
const LevelFilter = z.object({
  id: z.literal(LEVEL_FILTER),
  match: z.enum(["eq", "gte", "lte"], { error: "match is eq, gte or lte" }),
  level: Level,
});
export type LevelFilter = z.infer<typeof LevelFilter>;
const Filter = z.discriminatedUnion("id", [LevelFilter, TaggedFilter, AgeFilter, AssignedFilter, LatestReleaseFilter]);
export type Filter = LevelFilter | IssueFilter;

const TargetId = z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]);
const EmailAction = z
  .object({
    id: z.literal(EMAIL_ACTION),
    targetType: z.enum(["IssueOwners", "Team", "Member"], { error: "targetType is IssueOwners, Team or Member" }),
    targetIdentifier: z.union([TargetId, z.literal(""), z.null()]).optional(),
    fallthroughType: z.enum(["ActiveMembers", "AllMembers", "NoOne"]).optional(),
  })
  .transform((a, ctx) => {
    if (a.targetType === "IssueOwners")
      return { id: a.id, targetType: a.targetType, targetIdentifier: null, fallthroughType: a.fallthroughType ?? "ActiveMembers" };
    if (typeof a.targetIdentifier !== "number") {
      ctx.addIssue({ code: "custom", path: ["targetIdentifier"], message: `targetIdentifier is the ${a.targetType.toLowerCase()}'s id` });
      return z.NEVER;
    }
    return { id: a.id, targetType: a.targetType, targetIdentifier: a.targetIdentifier };
  });
export type EmailAction = z.infer<typeof EmailAction>;

/** An http(s) URL without credentials; where it may point is checked when it is called (decision 0018). */
const HookUrl = (field: string) =>
  z
    .string({ error: `${field} is the URL to post to` })
    .trim()
    .max(2048, `${field} is at most 2048 characters`)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), `${field} is an http:// or https:// URL`)
    .refine(
      (v) => !URL.canParse(v) || (new URL(v).username === "" && new URL(v).password === ""),
      `${field} may not hold a user or password`,
    );
const WebhookAction = z.object({ id: z.literal(WEBHOOK_ACTION), url: HookUrl("url") });
const SlackAction = z.object({ id: z.literal(SLACK_ACTION), webhookUrl: HookUrl("webhookUrl") });
const DiscordAction = z.object({ id: z.literal(DISCORD_ACTION), webhookUrl: HookUrl("webhookUrl") });
const ACTION_SCHEMAS = {
  [EMAIL_ACTION]: EmailAction,
  [WEBHOOK_ACTION]: WebhookAction,
  [SLACK_ACTION]: SlackAction,
  [DISCORD_ACTION]: DiscordAction,
};
const AnyAction = z.discriminatedUnion("id", [EmailAction, WebhookAction, SlackAction, DiscordAction]);
export type Action = z.infer<typeof AnyAction>;
export type WebAction = Exclude<Action, EmailAction>;
/** Where a notification goes: email, or one of the web channels (alert_notifications.channel). */
export type Channel = "email" | "webhook" | "slack" | "discord";
export function actionChannel(a: Action): Channel {
  if (a.id === WEBHOOK_ACTION) return "webhook";
  if (a.id === SLACK_ACTION) return "slack";
  return a.id === DISCORD_ACTION ? "discord" : "email";
}
export const actionUrl = (a: WebAction): string => (a.id === WEBHOOK_ACTION ? a.url : a.webhookUrl);

/** A list of `{ id, ... }` whose unknown ids are refused with the ids this server knows. */
function entries<T extends z.ZodType>(what: string, known: readonly string[], entry: T) {
  return z
    .array(z.looseObject({ id: z.string({ error: `each ${what} has an "id"` }) }), { error: `${what}s is a list` })
    .transform((items, ctx) => {
      const out: z.output<T>[] = [];
      items.forEach((item, i) => {
        if (!known.includes(item.id)) {
          ctx.addIssue({ code: "custom", path: [i, "id"], message: `unknown ${what} '${item.id}'; Telltale knows ${known.join(", ")}` });
          return;
        }
        const parsed = entry.safeParse(item);
        if (parsed.success) out.push(parsed.data);
        else for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: [i, ...issue.path], message: issue.message });
      });
      return out;
    });
}

export const RuleInput = z.object({
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(256),
  actionMatch: Match.default("all"),
  filterMatch: Match.default("all"),
  /** Minutes, as Sentry: 5 minutes to 30 days. */
  frequency: z.coerce.number().int().min(5, "frequency is 5 to 43200 minutes").max(43200, "frequency is 5 to 43200 minutes").default(30),
  environment: z.string().trim().max(64).nullable().optional(),
  conditions: entries("condition", [...Object.keys(CONDITIONS), ...FREQUENCY_IDS], Condition),
  filters: entries("filter", [LEVEL_FILTER, ...ISSUE_FILTER_IDS], Filter).default([]),
  actions: entries("action", Object.keys(ACTION_SCHEMAS), AnyAction).refine((a) => a.length > 0, "a rule needs at least one action"),
  /** Telltale's addition: `disabled` switches a rule off without deleting it. */
  status: z.enum(["active", "disabled"]).optional(),
});
export type RuleInput = z.input<typeof RuleInput>;
export type ValidRule = z.output<typeof RuleInput>;

export interface AlertRule {
  id: number;
  projectId: number;
  name: string;
  actionMatch: Match;
  filterMatch: Match;
  frequency: number;
  environment: string | null;
  conditions: Condition[];
  filters: Filter[];
  actions: Action[];
  status: "active" | "disabled";
  isDefault: boolean;
  createdBy: number | null;
  createdAt: number;
  updatedAt: number;
  /** Signs the rule's webhooks (HMAC-SHA256, decision 0018): generated when the rule is created. */
  secret: string;
}

/** Sentry's default rule for a new project (its "Send a notification for new issues"). */
export const DEFAULT_RULE: ValidRule = {
  name: "Send a notification for new issues",
  actionMatch: "all",
  filterMatch: "all",
  frequency: 30,
  environment: null,
  conditions: [{ id: FIRST_SEEN }],
  filters: [],
  actions: [{ id: EMAIL_ACTION, targetType: "IssueOwners", targetIdentifier: null, fallthroughType: "ActiveMembers" }],
};

/** A rule's entries in words, as the rules page and the API's `name` fields show them. */
export function describeCondition(c: Condition): string {
  return isFrequency(c) ? describeFrequency(c) : CONDITIONS[c.id].label;
}

export function describeFilter(f: Filter): string {
  if (f.id !== LEVEL_FILTER) return describeIssueFilter(f);
  const how = { eq: "equal to", gte: "greater than or equal to", lte: "less than or equal to" }[f.match];
  return `The event's level is ${how} ${levelName(f.level)}`;
}

/** A URL as the rules page shows it: its origin only, as Slack's and Discord's paths are their secret. */
export function maskedUrl(url: string): string {
  return URL.canParse(url) ? `${new URL(url).origin}/…` : "…";
}

export function describeAction(a: Action): string {
  if (a.id === WEBHOOK_ACTION) return `Send a signed webhook to ${maskedUrl(a.url)}`;
  if (a.id === SLACK_ACTION) return `Post to Slack through the incoming webhook ${maskedUrl(a.webhookUrl)}`;
  if (a.id === DISCORD_ACTION) return `Post to Discord through the webhook ${maskedUrl(a.webhookUrl)}`;
  if (a.targetType === "IssueOwners") return "Send an email to the issue's owners: for now, the project's members";
  return a.targetType === "Team"
    ? `Send an email to the members of team ${a.targetIdentifier}`
    : `Send an email to member ${a.targetIdentifier}`;
}
