/**
 * Metric alerts' storage (decision 0020): rules per organization, their evaluations,
 * the counts they read, and the notifications a change of state makes with their delivery
 * (./delivery.ts). Implemented over the main database by src/db/metric-alerts-store.ts.
 */
import type { MetricFilter } from "../metric-alerts/query";
import type { Aggregate, MetricRule, MetricState, ValidMetricRule } from "../metric-alerts/schema";
import type { Recipient } from "./alerts";
import type { DeliveryQueue, DeliveryState } from "./delivery";

export interface MetricEvaluation {
  ruleId: number;
  /** The minute evaluated (ms, a multiple of 60 000); one evaluation per rule and minute. */
  minute: number;
  value: number;
  state: MetricState;
  transition: "critical" | "warning" | "resolved" | null;
  at: number;
}

/** What an email about a change of state says, fixed when the state changed. */
export interface MetricAlertDetails {
  ruleName: string;
  orgSlug: string;
  aggregate: Aggregate;
  timeWindow: number;
  query: string;
  environment: string | null;
  projects: string[];
  thresholdType: "above" | "below";
  value: number;
  threshold: number | null;
  at: number;
}

export interface NewMetricNotification {
  id: string;
  organizationId: number;
  ruleId: number;
  kind: "critical" | "warning" | "resolved";
  details: MetricAlertDetails;
  userId: number;
  email: string;
  createdAt: number;
}

export interface MetricNotificationRecord extends NewMetricNotification, DeliveryState {}

/** What one evaluation reads and writes, inside the transaction that holds its rule. */
export interface MetricEvaluationScope {
  /** The slug of the rule's organization, for the emails' links. */
  orgSlug: string;
  /** The aggregate over the rule's projects for minutes `from` … `to` (inclusive, minute starts). */
  measure(q: {
    aggregate: Aggregate;
    projectIds: number[];
    environment: string | null;
    filter: MetricFilter;
    from: number;
    to: number;
  }): Promise<number>;
  teamMembers(organizationId: number, teamId: number): Promise<Recipient[]>;
  member(organizationId: number, userId: number): Promise<Recipient[]>;
  /** Records the evaluation, moves the rule to its new state and next evaluation, inserts the notifications (existing ids are kept). */
  record(
    evaluation: MetricEvaluation,
    next: { stateSince: number; nextEvalAt: number },
    notifications: readonly NewMetricNotification[],
  ): Promise<void>;
}

export interface MetricAlertStore extends DeliveryQueue<NewMetricNotification> {
  rules(organizationId: number): Promise<MetricRule[]>;
  rule(organizationId: number, id: number): Promise<MetricRule | null>;
  insertRule(
    organizationId: number,
    rule: ValidMetricRule,
    projectIds: number[],
    meta: { createdBy: number | null; now: number },
  ): Promise<MetricRule>;
  updateRule(organizationId: number, id: number, rule: ValidMetricRule, projectIds: number[], now: number): Promise<MetricRule | null>;
  deleteRule(organizationId: number, id: number): Promise<boolean>;
  /** Newest first. */
  evaluations(ruleId: number, limit: number): Promise<MetricEvaluation[]>;

  /** Whether an active rule is due (a read, so an idle loop takes no write lock). */
  anyRuleDue(now: number): Promise<boolean>;
  /**
   * Takes one due active rule in a transaction (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so each
   * evaluation is made by one process), runs `evaluate` in it and commits; false when none is due.
   */
  withDueRule(now: number, evaluate: (rule: MetricRule, scope: MetricEvaluationScope) => Promise<void>): Promise<boolean>;
  /** Drops count buckets older than `before`. */
  pruneCounts(before: number): Promise<void>;

  /** Newest first, at most `limit`. */
  notifications(filter: { organizationId: number; ruleId?: number }, limit: number): Promise<MetricNotificationRecord[]>;
}
