import type { Generated } from "kysely";
import type { AttemptColumns, DeliveryColumns } from "./schema-delivery";

/** Tables of issue alerts (migrations 0023 and 0024), part of `DB` in ./schema.ts. */
export interface AlertsSchema {
  alert_rules: AlertRulesTable;
  alert_rule_fires: AlertRuleFiresTable;
  alert_notifications: AlertNotificationsTable;
  alert_attempts: AlertAttemptsTable;
}

/** A rule in Sentry's shape; `conditions`, `filters` and `actions` are JSON lists of `{ id, ...fields }`. */
export interface AlertRulesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  action_match: string;
  filter_match: string;
  /** Minutes: the rule fires at most once per issue in this time. */
  frequency: number;
  environment: string | null;
  conditions: string;
  filters: string;
  actions: string;
  /** `active` or `disabled`. */
  status: string;
  is_default: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
  /** Signs the rule's webhooks (HMAC-SHA256, decision 0018); null only before migration 0025 filled it. */
  secret: string | null;
}

/** When a rule last fired for an issue, and for which outbox change. */
export interface AlertRuleFiresTable {
  rule_id: number;
  issue_id: number;
  fired_at: number;
  change_seq: number;
}

/** One email to one person for one rule and one issue change; `id` is stable (decision 0017). */
export interface AlertNotificationsTable extends DeliveryColumns {
  project_id: number;
  rule_id: number;
  issue_id: number;
  change_seq: number;
  change_kind: string;
  user_id: number;
  email: string;
  /** `email`, `webhook`, `slack` or `discord` (migration 0025); web channels have `user_id` 0 and no `email`. */
  channel: Generated<string>;
  /** The email address or the URL the notification goes to. */
  target: string | null;
}

export interface AlertAttemptsTable extends AttemptColumns {
  /** The HTTP status a webhook answered with, an excerpt of its body, and how long it took (migration 0025). */
  status_code: number | null;
  response: string | null;
  duration_ms: number | null;
}
