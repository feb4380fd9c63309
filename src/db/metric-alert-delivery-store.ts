import type { Kysely } from "kysely";
import type { MetricAlertDetails, MetricNotificationRecord, NewMetricNotification } from "../core/ports/metric-alerts";
import type { Dialect } from "./connect";
import { KyselyDelivery, type DeliveryKind } from "./delivery-store";
import type { DB } from "./schema";

/** Metric alert notifications: one email per person for one change of a rule's state (decision 0020). */
export const METRIC_ALERT_NOTIFICATIONS: DeliveryKind<"metric_alert_notifications", NewMetricNotification> = {
  table: "metric_alert_notifications",
  columns: (n) => ({
    organization_id: n.organizationId,
    rule_id: n.ruleId,
    kind: n.kind,
    details: JSON.stringify(n.details),
    user_id: n.userId,
    email: n.email,
  }),
  fields: (n) => ({
    id: n.id,
    organizationId: n.organization_id,
    ruleId: n.rule_id,
    kind: n.kind as MetricNotificationRecord["kind"],
    // Written by the evaluation from typed values (src/core/metric-alerts/run.ts).
    details: JSON.parse(n.details) as MetricAlertDetails,
    userId: n.user_id,
    email: n.email,
    createdAt: Number(n.created_at),
  }),
};

/**
 * Metric alert notifications (decision 0020): inserted with the evaluation that changed a rule's
 * state, delivered as ./delivery-store.ts does.
 */
export class KyselyMetricAlertDelivery extends KyselyDelivery<"metric_alert_notifications", NewMetricNotification> {
  constructor(db: Kysely<DB>, dialect: Dialect) {
    super(db, dialect, METRIC_ALERT_NOTIFICATIONS);
  }

  async notifications(filter: { organizationId: number; ruleId?: number }, limit: number): Promise<MetricNotificationRecord[]> {
    let query = this.db.selectFrom("metric_alert_notifications").selectAll().where("organization_id", "=", filter.organizationId);
    if (filter.ruleId !== undefined) query = query.where("rule_id", "=", filter.ruleId);
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
    return rows.map((r) => this.record(r));
  }
}
