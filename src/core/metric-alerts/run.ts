/**
 * Metric alerts on a schedule (decision 0020): every rule is evaluated once a minute, by one
 * process (the store takes each due rule in a transaction, `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL). An evaluation measures the rule's aggregate over its window from the minute
 * counts, records value and state, and when the state changes writes one notification per
 * recipient in the same transaction; the sender below delivers them with the issue alerts'
 * retries (../alerts/send.ts: 1 min · 2^(n-1), 8 tries) and records every attempt.
 */
import type { Ctx } from "../context";
import type { MetricAlertDetails, MetricEvaluationScope, NewMetricNotification, MetricNotificationRecord } from "../ports/metric-alerts";
import type { Recipient } from "../ports/alerts";
import type { NotificationStatus } from "../ports/delivery";
import { alertMessageId, MAX_TRIES, NO_SMTP, retryAt, SEND_BATCH, sendDue, type SendResult } from "../alerts/send";
import { metricAlertEmail } from "./email";
import { nextState, type Transition } from "./evaluate";
import { parseMetricQuery } from "./query";
import { triggerOf, type MetricAction, type MetricRule } from "./schema";

export const MINUTE = 60_000;
/** Minute buckets are kept this long: the longest window (a day) and an hour to spare. */
export const METRIC_COUNTS_KEEP_MS = 25 * 60 * MINUTE;
/** Rules evaluated per call at most, so that one call stays short; the next tick takes the rest. */
export const EVALUATIONS_PER_RUN = 200;

/** The stable id of one notification: the rule, the minute its state changed, the change and the recipient. */
export function metricNotificationId(ruleId: number, minute: number, kind: Transition, userId: number): string {
  return `metric-${ruleId}.${minute}.${kind}.user-${userId}`;
}

async function recipients(scope: MetricEvaluationScope, organizationId: number, actions: readonly MetricAction[]): Promise<Recipient[]> {
  const out = new Map<number, Recipient>();
  for (const a of actions)
    for (const r of a.targetType === "team"
      ? await scope.teamMembers(organizationId, a.targetIdentifier)
      : await scope.member(organizationId, a.targetIdentifier))
      out.set(r.userId, r);
  return [...out.values()];
}

/** Who hears of a change: the critical trigger's actions, the warning trigger's, or on resolving, those of the state left. */
function actionsFor(rule: MetricRule, transition: Transition, before: MetricRule["state"]): MetricAction[] {
  const label = transition === "resolved" ? (before === "warning" ? "warning" : "critical") : transition;
  return triggerOf(rule, label)?.actions ?? [];
}

/**
 * The minutes an evaluation at `minute` reads: the last `timeWindow` complete ones. The loop
 * evaluates in a minute's first second, so the current minute is still nearly empty; counting it
 * as one of the window's minutes would leave a one-minute window always near zero.
 */
export function windowOf(timeWindow: number, minute: number): { from: number; to: number } {
  return { from: minute - timeWindow * MINUTE, to: minute - MINUTE };
}

export async function evaluateRule(rule: MetricRule, scope: MetricEvaluationScope, now: number): Promise<void> {
  const minute = Math.floor(now / MINUTE) * MINUTE;
  const parsed = parseMetricQuery(rule.query);
  // A stored query was valid when written; one the parser no longer takes counts nothing rather than everything.
  const value = parsed.ok
    ? await scope.measure({
        aggregate: rule.aggregate,
        projectIds: rule.projects.map((p) => p.id),
        environment: rule.environment,
        filter: parsed.filter,
        ...windowOf(rule.timeWindow, minute),
      })
    : 0;
  const step = nextState(rule, rule.state, value);
  const notifications: NewMetricNotification[] = [];
  if (step.transition) {
    const details: MetricAlertDetails = {
      ruleName: rule.name,
      orgSlug: scope.orgSlug,
      aggregate: rule.aggregate,
      timeWindow: rule.timeWindow,
      query: rule.query,
      environment: rule.environment,
      projects: rule.projects.map((p) => p.slug),
      thresholdType: rule.thresholdType,
      value,
      threshold: step.threshold,
      at: now,
    };
    for (const r of await recipients(scope, rule.organizationId, actionsFor(rule, step.transition, rule.state)))
      notifications.push({
        id: metricNotificationId(rule.id, minute, step.transition, r.userId),
        organizationId: rule.organizationId,
        ruleId: rule.id,
        kind: step.transition,
        details,
        userId: r.userId,
        email: r.email,
        createdAt: now,
      });
  }
  await scope.record(
    { ruleId: rule.id, minute, value, state: step.state, transition: step.transition, at: now },
    { stateSince: step.state === rule.state ? rule.stateSince : now, nextEvalAt: minute + MINUTE },
    notifications,
  );
}

/** Evaluates every rule that is due; answers how many were. */
export async function evaluateDueRules(ctx: Ctx): Promise<number> {
  let done = 0;
  while (done < EVALUATIONS_PER_RUN) {
    const now = ctx.now();
    if (!(await ctx.metricAlerts.anyRuleDue(now))) break;
    const took = await ctx.metricAlerts.withDueRule(now, (rule, scope) => evaluateRule(rule, scope, now));
    if (!took) break;
    done++;
  }
  return done;
}

/** What a send run did, counted as the issue alerts' sender counts. */
export type MetricSendResult = SendResult;

async function sendOne(ctx: Ctx, n: MetricNotificationRecord, result: MetricSendResult): Promise<void> {
  const now = ctx.now();
  const attempt = n.attempts + 1;
  const record = (status: NotificationStatus, error: string | null, messageId: string | null = null) =>
    ctx.metricAlerts.recordAttempt(
      { notificationId: n.id, attempt, status: status === "pending" ? "failed" : status, error, at: now },
      { status, nextAttemptAt: status === "pending" ? retryAt(now, attempt) : now, messageId, sentAt: status === "sent" ? now : null },
    );
  if (!ctx.mailer) {
    result.notSent++;
    return record("not_sent", NO_SMTP);
  }
  const url = `${ctx.publicUrl.replace(/\/$/, "")}/orgs/${encodeURIComponent(n.details.orgSlug)}/metric-alerts?rule=${n.ruleId}`;
  const email = metricAlertEmail(n.kind, n.details, url);
  const messageId = alertMessageId(n.id, ctx.publicUrl);
  try {
    await ctx.mailer.send({ ...email, to: n.email, messageId });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result.failed++;
    return record(attempt >= MAX_TRIES ? "failed" : "pending", message.slice(0, 1000));
  }
  result.sent++;
  return record("sent", null, messageId);
}

/** Sends the metric alert emails that are due, batch after batch until none is. */
export async function sendDueMetricNotifications(ctx: Ctx, batch = SEND_BATCH): Promise<MetricSendResult> {
  const result: MetricSendResult = { sent: 0, failed: 0, notSent: 0 };
  await sendDue(ctx, ctx.metricAlerts, batch, (n) => sendOne(ctx, n, result));
  return result;
}

export interface MetricRunResult extends MetricSendResult {
  evaluated: number;
}

/**
 * One tick of the metric alerts, in the alert sender's loop (src/server/alert-loop.ts): evaluate
 * what is due, send what is due, and every ten minutes drop the minute buckets no window reads.
 */
export async function runMetricAlerts(ctx: Ctx, state: { prunedAt: number }): Promise<MetricRunResult> {
  const evaluated = await evaluateDueRules(ctx);
  const sent = await sendDueMetricNotifications(ctx);
  const now = ctx.now();
  if (now - state.prunedAt >= 10 * MINUTE) {
    state.prunedAt = now;
    await ctx.metricAlerts.pruneCounts(now - METRIC_COUNTS_KEEP_MS);
  }
  return { evaluated, ...sent };
}
