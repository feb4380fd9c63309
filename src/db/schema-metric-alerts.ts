import type { Generated } from "kysely";
import type { AttemptColumns, DeliveryColumns } from "./schema-delivery";

/** Tables of metric alerts (migration 0027, decision 0020), part of `DB` in ./schema.ts. */
export interface MetricAlertsSchema {
  metric_alert_rules: MetricAlertRulesTable;
  metric_alert_rule_projects: MetricAlertRuleProjectsTable;
  metric_alert_evaluations: MetricAlertEvaluationsTable;
  metric_alert_notifications: MetricAlertNotificationsTable;
  metric_alert_attempts: MetricAlertAttemptsTable;
  metric_minutes: MetricMinutesTable;
  metric_minute_users: MetricMinuteUsersTable;
}

/** An organization's metric alert rule; `triggers` is a JSON list validated before it was written. */
export interface MetricAlertRulesTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  /** `count()` or `count_unique(user)`. */
  aggregate: string;
  query: string;
  environment: string | null;
  /** Minutes. */
  time_window: number;
  /** 0 above, 1 below (Sentry's numbers). */
  threshold_type: number;
  resolve_threshold: number | null;
  triggers: string;
  /** `active` or `disabled`. */
  status: string;
  /** `ok`, `warning` or `critical`: the state after the latest evaluation. */
  state: string;
  state_since: number;
  next_eval_at: number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

export interface MetricAlertRuleProjectsTable {
  rule_id: number;
  project_id: number;
}

/** One evaluation of a rule, at most one per rule and minute. */
export interface MetricAlertEvaluationsTable {
  id: Generated<number>;
  rule_id: number;
  minute: number;
  value: number;
  state: string;
  /** `critical`, `warning` or `resolved` when the state changed. */
  transition: string | null;
  at: number;
}

/** One email to one person for one change of a rule's state; `id` is stable. */
export interface MetricAlertNotificationsTable extends DeliveryColumns {
  organization_id: number;
  rule_id: number;
  kind: string;
  /** JSON: what the email says (MetricAlertDetails), fixed when the state changed. */
  details: string;
  user_id: number;
  email: string;
}

export type MetricAlertAttemptsTable = AttemptColumns;

/** Error events per project, minute, environment ('' for none) and level. */
export interface MetricMinutesTable {
  project_id: number;
  minute: number;
  environment: string;
  level: string;
  count: number;
}

export interface MetricMinuteUsersTable {
  project_id: number;
  minute: number;
  environment: string;
  level: string;
  user_key: string;
}
