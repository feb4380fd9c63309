import type { Kysely, Selectable } from "kysely";
import type {
  AlertEmailFacts,
  AttemptRecord,
  NewNotification,
  NotificationEntry,
  NotificationRecord,
  NotificationStatus,
} from "../core/ports/alerts";
import type { Channel } from "../core/alerts/rule-schema";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import type { AlertNotificationsTable } from "./schema-alerts";

function notificationRecord(n: Selectable<AlertNotificationsTable>): NotificationRecord {
  return {
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
    status: n.status as NotificationStatus,
    attempts: n.attempts,
    nextAttemptAt: Number(n.next_attempt_at),
    lastError: n.last_error,
    messageId: n.message_id,
    sentAt: n.sent_at === null ? null : Number(n.sent_at),
  };
}

/** Notification rows per INSERT (an outbox run may make many: a change per issue, a row per recipient). */
const NOTIFICATION_CHUNK = 1000;

/**
 * Alert notifications and their delivery (decision 0017): inserted by the outbox consumer,
 * claimed by senders with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), every attempt recorded.
 */
export class KyselyAlertDelivery {
  constructor(
    protected readonly db: Kysely<DB>,
    protected readonly dialect: Dialect,
  ) {}

  async insertNotifications(rows: readonly NewNotification[]): Promise<void> {
    // 14 columns a row: chunks stay under SQLite's 32,766 bound parameters.
    for (let i = 0; i < rows.length; i += NOTIFICATION_CHUNK) await this.insertChunk(rows.slice(i, i + NOTIFICATION_CHUNK));
  }

  private async insertChunk(rows: readonly NewNotification[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto("alert_notifications")
      .values(
        rows.map((n) => ({
          id: n.id,
          project_id: n.projectId,
          rule_id: n.ruleId,
          issue_id: n.issueId,
          change_seq: n.changeSeq,
          change_kind: n.changeKind,
          user_id: n.userId ?? 0,
          email: n.channel === "email" ? n.target : "",
          channel: n.channel,
          target: n.target,
          status: "pending",
          attempts: 0,
          next_attempt_at: n.createdAt,
          created_at: n.createdAt,
        })),
      )
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  }

  async anyDue(now: number): Promise<boolean> {
    const row = await this.dueQuery(this.db, now).select("id").limit(1).executeTakeFirst();
    return row !== undefined;
  }

  private dueQuery(db: Kysely<DB>, now: number) {
    return db
      .selectFrom("alert_notifications")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", now)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]));
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<NotificationRecord[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = this.dueQuery(trx, now).selectAll().orderBy("next_attempt_at").orderBy("id").limit(limit);
      if (this.dialect === "postgres") query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      if (rows.length === 0) return [];
      await trx
        .updateTable("alert_notifications")
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
        .insertInto("alert_attempts")
        .values({
          notification_id: attempt.notificationId,
          attempt: attempt.attempt,
          status: attempt.status,
          error: attempt.error,
          at: attempt.at,
          status_code: attempt.statusCode ?? null,
          response: attempt.response ?? null,
          duration_ms: attempt.durationMs ?? null,
        })
        .execute();
      await trx
        .updateTable("alert_notifications")
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
    return rows.map(({ issue_title, ...n }) => ({ ...notificationRecord(n), issueTitle: issue_title }));
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
