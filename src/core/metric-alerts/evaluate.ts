/**
 * A metric alert's state machine (decision 0020), pure: from the state before and the value just
 * measured, the state after and the change to announce. Thresholds as Sentry's metric alerts
 * (https://docs.sentry.io/product/alerts/create-alerts/metric-alert-config/): "above" is breached
 * by a value greater than the threshold, "below" by a smaller one. Critical wins over warning; a
 * value that leaves critical for the warning range is announced as a warning. An alert resolves
 * when the value crosses `resolveThreshold` back, or, without one, when it no longer breaches the
 * lowest trigger; a value between the two keeps the alert as it is (no flapping).
 */
import { triggerOf, type MetricRule, type MetricState, type ThresholdType } from "./schema";

export type Transition = "critical" | "warning" | "resolved";

export interface Step {
  state: MetricState;
  transition: Transition | null;
  /** The threshold the announcement is about: the one breached, or the one the value came back under. */
  threshold: number | null;
}

const breaches = (type: ThresholdType, value: number, threshold: number) => (type === "above" ? value > threshold : value < threshold);

type RuleParts = Pick<MetricRule, "thresholdType" | "resolveThreshold" | "triggers">;

export function nextState(rule: RuleParts, before: MetricState, value: number): Step {
  const critical = triggerOf(rule, "critical");
  const warning = triggerOf(rule, "warning");
  let state: MetricState = "ok";
  if (critical && breaches(rule.thresholdType, value, critical.alertThreshold)) state = "critical";
  else if (warning && breaches(rule.thresholdType, value, warning.alertThreshold)) state = "warning";
  if (state === "critical") return { state, transition: before === "critical" ? null : "critical", threshold: critical!.alertThreshold };
  if (state === "warning") return { state, transition: before === "warning" ? null : "warning", threshold: warning!.alertThreshold };
  if (before === "ok") return { state: "ok", transition: null, threshold: null };
  const lowest = (warning ?? critical)!.alertThreshold;
  const resolveAt = rule.resolveThreshold;
  // Sentry resolves an "above" alert when the value is below resolveThreshold (and "below" above it).
  const resolved = resolveAt === null ? true : rule.thresholdType === "above" ? value < resolveAt : value > resolveAt;
  if (resolved) return { state: "ok", transition: "resolved", threshold: resolveAt ?? lowest };
  return { state: before, transition: null, threshold: null };
}
