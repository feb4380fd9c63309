/**
 * Metric alert rules in Sentry's shape (https://docs.sentry.io/api/alerts/create-a-metric-alert-rule-for-an-organization/):
 * `name`, `aggregate`, `timeWindow` (minutes), `query`, `environment`, `projects` (slugs),
 * `thresholdType` (0 above, 1 below), `resolveThreshold` and `triggers`, each
 * `{ label: "critical" | "warning", alertThreshold, actions: [{ type: "email", targetType, targetIdentifier }] }`.
 * Only the error dataset is counted: `dataset` may be left out or be `events`/`errors`.
 */
import { z } from "zod";
import { parseMetricQuery } from "./query";

export const AGGREGATES = {
  "count()": "Number of errors",
  "count_unique(user)": "Users affected",
} as const;
export type Aggregate = keyof typeof AGGREGATES;

/** The windows Sentry's metric alerts offer, in minutes; windows are counted from minute buckets kept a day. */
export const TIME_WINDOWS = [1, 5, 10, 15, 30, 60, 120, 240, 1440] as const;

export const METRIC_RULE_LIMITS = { name: 256, query: 500, environment: 64, projects: 20, actions: 20 } as const;

export type ThresholdType = "above" | "below";
export type MetricState = "ok" | "warning" | "critical";
export type TriggerLabel = "critical" | "warning";

const TargetId = z.union(
  [
    z.number().int().positive(),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ],
  {
    error: "targetIdentifier is the user's or team's id",
  },
);

const EmailAction = z.object({
  type: z.literal("email", { error: 'type is "email" (the only action metric alerts send here)' }),
  targetType: z.enum(["user", "team"], { error: "targetType is user or team" }),
  targetIdentifier: TargetId,
});
export type MetricAction = z.infer<typeof EmailAction>;

const Threshold = z.number({ error: "a threshold is a number" }).finite().min(0).max(1e12);

const Trigger = z.object({
  label: z.enum(["critical", "warning"], { error: "label is critical or warning" }),
  alertThreshold: Threshold,
  actions: z.array(EmailAction).max(METRIC_RULE_LIMITS.actions).default([]),
});
export type MetricTrigger = z.infer<typeof Trigger>;

export const MetricRuleInput = z
  .object({
    name: z.string().trim().min(1, "name is required").max(METRIC_RULE_LIMITS.name),
    aggregate: z.enum(Object.keys(AGGREGATES) as [Aggregate, ...Aggregate[]], {
      error: "aggregate is count() (errors) or count_unique(user) (users affected)",
    }),
    dataset: z.enum(["events", "errors"], { error: "dataset is events (errors are what Telltale counts)" }).optional(),
    timeWindow: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(
      z.number().refine((n): n is (typeof TIME_WINDOWS)[number] => (TIME_WINDOWS as readonly number[]).includes(n), {
        error: `timeWindow is one of ${TIME_WINDOWS.join(", ")} (minutes)`,
      }),
    ),
    query: z.string().max(METRIC_RULE_LIMITS.query).default(""),
    environment: z.string().trim().max(METRIC_RULE_LIMITS.environment).nullish(),
    projects: z.array(z.string().max(100)).min(1, "projects names at least one project").max(METRIC_RULE_LIMITS.projects),
    thresholdType: z.union([z.literal(0), z.literal(1)], { error: "thresholdType is 0 (above) or 1 (below)" }).default(0),
    resolveThreshold: Threshold.nullish(),
    triggers: z.array(Trigger).min(1, "triggers has a critical trigger").max(2),
    status: z.enum(["active", "disabled"]).optional(),
    owner: z.unknown().optional(),
  })
  .superRefine((rule, ctx) => {
    const labels = rule.triggers.map((t) => t.label);
    if (!labels.includes("critical")) ctx.addIssue({ code: "custom", path: ["triggers"], message: "triggers has a critical trigger" });
    if (new Set(labels).size !== labels.length) ctx.addIssue({ code: "custom", path: ["triggers"], message: "one trigger per label" });
    const critical = rule.triggers.find((t) => t.label === "critical");
    const warning = rule.triggers.find((t) => t.label === "warning");
    const above = rule.thresholdType === 0;
    if (
      critical &&
      warning &&
      (above ? warning.alertThreshold > critical.alertThreshold : warning.alertThreshold < critical.alertThreshold)
    )
      ctx.addIssue({
        code: "custom",
        path: ["triggers"],
        message: `the warning threshold is ${above ? "at most" : "at least"} the critical one`,
      });
    const lowest = warning ?? critical;
    if (
      lowest &&
      rule.resolveThreshold != null &&
      (above ? rule.resolveThreshold > lowest.alertThreshold : rule.resolveThreshold < lowest.alertThreshold)
    )
      ctx.addIssue({
        code: "custom",
        path: ["resolveThreshold"],
        message: `resolveThreshold is ${above ? "at most" : "at least"} the ${lowest.label} threshold`,
      });
    const parsed = parseMetricQuery(rule.query);
    if (!parsed.ok) ctx.addIssue({ code: "custom", path: ["query"], message: parsed.error });
  })
  .transform((r) => ({
    name: r.name,
    aggregate: r.aggregate,
    timeWindow: Number(r.timeWindow),
    query: r.query.trim(),
    environment: r.environment ? r.environment : null,
    projects: [...new Set(r.projects)],
    thresholdType: (r.thresholdType === 1 ? "below" : "above") as ThresholdType,
    resolveThreshold: r.resolveThreshold ?? null,
    triggers: r.triggers,
    status: r.status ?? ("active" as const),
  }));
export type ValidMetricRule = z.output<typeof MetricRuleInput>;

/** A stored rule: what was validated, with its organization, project ids and state. */
export interface MetricRule extends Omit<ValidMetricRule, "projects"> {
  id: number;
  organizationId: number;
  projects: { id: number; slug: string }[];
  state: MetricState;
  stateSince: number;
  nextEvalAt: number;
  createdBy: number | null;
  createdAt: number;
  updatedAt: number;
}

export function triggerOf(rule: Pick<MetricRule, "triggers">, label: TriggerLabel): MetricTrigger | undefined {
  return rule.triggers.find((t) => t.label === label);
}
