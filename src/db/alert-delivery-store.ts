import type { Kysely } from "kysely";
import type { AlertEmailFacts, NewNotification, NotificationEntry, NotificationRecord } from "../core/ports/alerts";
import type { AttemptRecord } from "../core/ports/delivery";
import type { Channel } from "../core/alerts/rule-schema";
import type { Dialect } from "./connect";
import { KyselyDelivery, type DeliveryKind } from "./delivery-store";
import type { DB } from "./schema";

/** Issue alert notifications: one per rule, issue change and recipient or web channel (decision 0017). */
export const ISSUE_ALERT_NOTIFICATIONS: DeliveryKind<"alert_notifications", NewNotification> = {
  table: "alert_notifications",
  columns: (n) => ({
    project_id: n.projectId,
    rule_id: n.ruleId,
    issue_id: n.issueId,
    change_seq: n.changeSeq,
    change_kind: n.changeKind,
    user_id: n.userId ?? 0,
    email: n.channel === "email" ? n.target : "",
    channel: n.channel,
    target: n.target,
  }),
  fields: (n) => ({
    id: n.id,
    projectId: n.project_id,
    ruleId: n.rule_id,
    issueId: n.issue_id,
    changeSeq: Number(n.change_seq),
    changeKind: n.change_kind,
    channel: n.channel as Channel,
    target: n.target ?? n.email,
    // Web channels belong to no person: their rows hold user 0 (migration 0025).
    userId: n.channel === "email" ? n.user_id : null,
    createdAt: Number(n.created_at),
  }),
  attemptColumns: (a) => ({ status_code: a.statusCode ?? null, response: a.response ?? null, duration_ms: a.durationMs ?? null }),
};

/**
 * Issue alert notifications (decision 0017): inserted by the outbox consumer, delivered as
 * ./delivery-store.ts does, listed with their attempts on the Alerts page.
 */
export class KyselyAlertDelivery extends KyselyDelivery<"alert_notifications", NewNotification> {
  constructor(db: Kysely<DB>, dialect: Dialect) {
    super(db, dialect, ISSUE_ALERT_NOTIFICATIONS);
  }

  async emailFacts(n: NotificationRecord): Promise<AlertEmailFacts | null> {
    const row = await this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .leftJoin("alert_rules", (j) => j.on("alert_rules.id", "=", n.ruleId))
      .select([
        "issues.id",
        "issues.short_number",
        "issues.title",
        "issues.culprit",
        "issues.level",
        "issues.first_seen",
        "issues.last_seen",
        "issues.times_seen",
        "issues.user_count",
        "alert_rules.secret as rule_secret",
        "projects.slug as project_slug",
        "projects.name as project_name",
        "organizations.slug as org_slug",
        "alert_rules.name as rule_name",
      ])
      .where("issues.id", "=", n.issueId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      issueId: row.id,
      shortNumber: row.short_number,
      title: row.title,
      culprit: row.culprit,
      level: row.level,
      firstSeen: Number(row.first_seen),
      lastSeen: Number(row.last_seen),
      timesSeen: Number(row.times_seen),
      projectSlug: row.project_slug,
      projectName: row.project_name,
      orgSlug: row.org_slug,
      ruleName: row.rule_name,
      userCount: Number(row.user_count),
      ruleSecret: row.rule_secret,
    };
  }

  async notifications(filter: { projectId?: number; issueId?: number }): Promise<NotificationEntry[]> {
    let query = this.db
      .selectFrom("alert_notifications")
      .leftJoin("issues", "issues.id", "alert_notifications.issue_id")
      .selectAll("alert_notifications")
      .select("issues.title as issue_title");
    if (filter.projectId !== undefined) query = query.where("alert_notifications.project_id", "=", filter.projectId);
    if (filter.issueId !== undefined) query = query.where("alert_notifications.issue_id", "=", filter.issueId);
    const rows = await query.orderBy("alert_notifications.created_at", "desc").orderBy("alert_notifications.id").limit(500).execute();
    return rows.map(({ issue_title, ...n }) => ({ ...this.record(n), issueTitle: issue_title }));
  }

  async attempts(notificationId: string): Promise<AttemptRecord[]> {
    return this.attemptsOf([notificationId]);
  }

  async attemptsOf(notificationIds: readonly string[]): Promise<AttemptRecord[]> {
    if (notificationIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("alert_attempts")
      .selectAll()
      .where("notification_id", "in", notificationIds)
      .orderBy("notification_id")
      .orderBy("attempt")
      .orderBy("id")
      .execute();
    return rows.map((a) => ({
      notificationId: a.notification_id,
      attempt: a.attempt,
      status: a.status as AttemptRecord["status"],
      error: a.error,
      at: Number(a.at),
      statusCode: a.status_code,
      response: a.response,
      durationMs: a.duration_ms,
    }));
  }

  async newestIssue(projectId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom("issues")
      .select("id")
      .where("project_id", "=", projectId)
      .orderBy("last_seen", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }
}
