import type { Kysely, Selectable } from "kysely";
import type { AttemptRecord, NotificationStatus } from "../core/ports/alerts";
import type { MetricAlertDetails, MetricNotificationRecord, NewMetricNotification } from "../core/ports/metric-alerts";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import type { MetricAlertNotificationsTable } from "./schema-metric-alerts";

function notificationRecord(n: Selectable<MetricAlertNotificationsTable>): MetricNotificationRecord {
  return {
    id: n.id,
    organizationId: n.organization_id,
    ruleId: n.rule_id,
    kind: n.kind as MetricNotificationRecord["kind"],
    // Written by the evaluation from typed values (src/core/metric-alerts/run.ts).
    details: JSON.parse(n.details) as MetricAlertDetails,
    userId: n.user_id,
    email: n.email,
    createdAt: Number(n.created_at),
    status: n.status as NotificationStatus,
    attempts: n.attempts,
    nextAttemptAt: Number(n.next_attempt_at),
    lastError: n.last_error,
    messageId: n.message_id,
    sentAt: n.sent_at === null ? null : Number(n.sent_at),
  };
}

/**
 * Metric alert notifications and their delivery (decision 0020), in the issue alerts' way
 * (./alert-delivery-store.ts): inserted with the evaluation that changed a rule's state, claimed
 * by senders with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), every attempt recorded.
 */
export class KyselyMetricAlertDelivery {
  constructor(
    protected readonly db: Kysely<DB>,
    protected readonly dialect: Dialect,
  ) {}

  async insertNotifications(rows: readonly NewMetricNotification[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto("metric_alert_notifications")
      .values(
        rows.map((n) => ({
          id: n.id,
          organization_id: n.organizationId,
          rule_id: n.ruleId,
          kind: n.kind,
          details: JSON.stringify(n.details),
          user_id: n.userId,
          email: n.email,
          status: "pending",
          attempts: 0,
          next_attempt_at: n.createdAt,
          created_at: n.createdAt,
        })),
      )
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  }

  private dueQuery(db: Kysely<DB>, now: number) {
    return db
      .selectFrom("metric_alert_notifications")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]));
  }

  async anyDue(now: number): Promise<boolean> {
    return (await this.dueQuery(this.db, now).select("id").limit(1).executeTakeFirst()) !== undefined;
  }

  claimDue(now: number, limit: number, leaseMs: number): Promise<MetricNotificationRecord[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = this.dueQuery(trx, now).selectAll().orderBy("next_attempt_at").orderBy("id").limit(limit);
      if (this.dialect === "postgres") query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable("metric_alert_notifications")
        .set({ claimed_until: now + leaseMs })
        .where(
          "id",
          "in",
          rows.map((r) => r.id),
        )
        .execute();
      return rows.map(notificationRecord);
    });
  }

  async recordAttempt(
    attempt: AttemptRecord,
    next: { status: NotificationStatus; nextAttemptAt: number; messageId: string | null; sentAt: number | null },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("metric_alert_attempts")
        .values({
          notification_id: attempt.notificationId,
          attempt: attempt.attempt,
          status: attempt.status,
          error: attempt.error,
          at: attempt.at,
        })
        .execute();
      await trx
        .updateTable("metric_alert_notifications")
        .set({
          status: next.status,
          attempts: attempt.attempt,
          next_attempt_at: next.nextAttemptAt,
          claimed_until: null,
          last_error: attempt.error,
          message_id: next.messageId,
          sent_at: next.sentAt,
        })
        .where("id", "=", attempt.notificationId)
        .execute();
    });
  }

  async notifications(filter: { organizationId: number; ruleId?: number }, limit: number): Promise<MetricNotificationRecord[]> {
    let query = this.db.selectFrom("metric_alert_notifications").selectAll().where("organization_id", "=", filter.organizationId);
    if (filter.ruleId !== undefined) query = query.where("rule_id", "=", filter.ruleId);
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
    return rows.map(notificationRecord);
  }
}
