import type { Kysely, Selectable } from "kysely";
import type { AlertRule, ValidRule } from "../core/alerts/rule-schema";
import type {
  AlertEmailFacts,
  AlertIssue,
  AlertStore,
  AttemptRecord,
  NewNotification,
  NotificationRecord,
  NotificationStatus,
  Recipient,
} from "../core/ports/alerts";
import type { Dialect } from "./connect";
import type { DB } from "./schema";
import type { AlertNotificationsTable, AlertRulesTable } from "./schema-alerts";

/** Stored JSON of entries that were validated before they were written (src/core/alerts/rule-schema.ts). */
function storedList<T>(json: string): T[] {
  return JSON.parse(json) as T[];
}

function ruleRecord(r: Selectable<AlertRulesTable>): AlertRule {
  return {
    id: r.id,
    projectId: r.project_id,
    name: r.name,
    actionMatch: r.action_match as AlertRule["actionMatch"],
    filterMatch: r.filter_match as AlertRule["filterMatch"],
    frequency: r.frequency,
    environment: r.environment,
    conditions: storedList(r.conditions),
    filters: storedList(r.filters),
    actions: storedList(r.actions),
    status: r.status === "disabled" ? "disabled" : "active",
    isDefault: r.is_default === 1,
    createdBy: r.created_by,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function notificationRecord(n: Selectable<AlertNotificationsTable>): NotificationRecord {
  return {
    id: n.id,
    projectId: n.project_id,
    ruleId: n.rule_id,
    issueId: n.issue_id,
    changeSeq: Number(n.change_seq),
    changeKind: n.change_kind,
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

const ruleColumns = (rule: ValidRule) => ({
  name: rule.name,
  action_match: rule.actionMatch,
  filter_match: rule.filterMatch,
  frequency: rule.frequency,
  environment: rule.environment ?? null,
  conditions: JSON.stringify(rule.conditions),
  filters: JSON.stringify(rule.filters),
  actions: JSON.stringify(rule.actions),
  status: rule.status ?? "active",
});

/** Inserts a rule with `db`, which may be a transaction the caller holds (project creation). */
export async function insertRuleRow(
  db: Kysely<DB>,
  projectId: number,
  rule: ValidRule,
  meta: { isDefault: boolean; createdBy: number | null; now: number },
): Promise<AlertRule> {
  const row = await db
    .insertInto("alert_rules")
    .values({
      project_id: projectId,
      ...ruleColumns(rule),
      is_default: meta.isDefault ? 1 : 0,
      created_by: meta.createdBy,
      created_at: meta.now,
      updated_at: meta.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return ruleRecord(row);
}

export class KyselyAlertStore implements AlertStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The same store over a transaction the caller holds (the outbox consumer's). */
  within(trx: Kysely<DB>): KyselyAlertStore {
    return new KyselyAlertStore(trx, this.dialect);
  }

  async rules(projectId: number): Promise<AlertRule[]> {
    const rows = await this.db.selectFrom("alert_rules").selectAll().where("project_id", "=", projectId).orderBy("id").execute();
    return rows.map(ruleRecord);
  }

  async rule(projectId: number, id: number): Promise<AlertRule | null> {
    const row = await this.db
      .selectFrom("alert_rules")
      .selectAll()
      .where("project_id", "=", projectId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? ruleRecord(row) : null;
  }

  insertRule(projectId: number, rule: ValidRule, meta: { isDefault: boolean; createdBy: number | null; now: number }): Promise<AlertRule> {
    return insertRuleRow(this.db, projectId, rule, meta);
  }

  async updateRule(projectId: number, id: number, rule: ValidRule, now: number): Promise<AlertRule | null> {
    const row = await this.db
      .updateTable("alert_rules")
      .set({ ...ruleColumns(rule), updated_at: now })
      .where("project_id", "=", projectId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    return row ? ruleRecord(row) : null;
  }

  async deleteRule(projectId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom("alert_rules").where("project_id", "=", projectId).where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async issue(issueId: number): Promise<AlertIssue | null> {
    const row = await this.db
      .selectFrom("issues")
      .innerJoin("projects", "projects.id", "issues.project_id")
      .select(["issues.id", "issues.project_id", "projects.organization_id", "issues.level", "issues.last_environment"])
      .where("issues.id", "=", issueId)
      .executeTakeFirst();
    return row
      ? { id: row.id, projectId: row.project_id, organizationId: row.organization_id, level: row.level, environment: row.last_environment }
      : null;
  }

  async projectMembers(projectId: number): Promise<Recipient[]> {
    const rows = await this.db
      .selectFrom("project_teams")
      .innerJoin("teams", "teams.id", "project_teams.team_id")
      .innerJoin("team_members", "team_members.team_id", "project_teams.team_id")
      .innerJoin("memberships", (j) =>
        j.onRef("memberships.user_id", "=", "team_members.user_id").onRef("memberships.organization_id", "=", "teams.organization_id"),
      )
      .innerJoin("users", "users.id", "team_members.user_id")
      .select(["users.id as userId", "users.email"])
      .distinct()
      .where("project_teams.project_id", "=", projectId)
      .orderBy("users.id")
      .execute();
    return rows;
  }

  async teamMembers(organizationId: number, teamId: number): Promise<Recipient[]> {
    return this.db
      .selectFrom("team_members")
      .innerJoin("teams", "teams.id", "team_members.team_id")
      .innerJoin("memberships", (j) =>
        j.onRef("memberships.user_id", "=", "team_members.user_id").onRef("memberships.organization_id", "=", "teams.organization_id"),
      )
      .innerJoin("users", "users.id", "team_members.user_id")
      .select(["users.id as userId", "users.email"])
      .where("teams.id", "=", teamId)
      .where("teams.organization_id", "=", organizationId)
      .orderBy("users.id")
      .execute();
  }

  async member(organizationId: number, userId: number): Promise<Recipient[]> {
    return this.db
      .selectFrom("memberships")
      .innerJoin("users", "users.id", "memberships.user_id")
      .select(["users.id as userId", "users.email"])
      .where("memberships.organization_id", "=", organizationId)
      .where("memberships.user_id", "=", userId)
      .execute();
  }

  async claimFire(ruleId: number, issueId: number, seq: number, at: number, frequencyMs: number): Promise<boolean> {
    const row = await this.db
      .insertInto("alert_rule_fires")
      .values({ rule_id: ruleId, issue_id: issueId, fired_at: at, change_seq: seq })
      .onConflict((oc) =>
        oc
          .columns(["rule_id", "issue_id"])
          .doUpdateSet({ fired_at: at, change_seq: seq })
          .where((eb) => eb.or([eb("alert_rule_fires.fired_at", "<=", at - frequencyMs), eb("alert_rule_fires.change_seq", "=", seq)])),
      )
      .returning("rule_id")
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertNotifications(rows: readonly NewNotification[]): Promise<void> {
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
    };
  }

  async notifications(filter: { projectId?: number; issueId?: number }): Promise<NotificationRecord[]> {
    let query = this.db.selectFrom("alert_notifications").selectAll();
    if (filter.projectId !== undefined) query = query.where("project_id", "=", filter.projectId);
    if (filter.issueId !== undefined) query = query.where("issue_id", "=", filter.issueId);
    const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(500).execute();
    return rows.map(notificationRecord);
  }

  async attempts(notificationId: string): Promise<AttemptRecord[]> {
    const rows = await this.db
      .selectFrom("alert_attempts")
      .selectAll()
      .where("notification_id", "=", notificationId)
      .orderBy("attempt")
      .execute();
    return rows.map((a) => ({
      notificationId: a.notification_id,
      attempt: a.attempt,
      status: a.status as AttemptRecord["status"],
      error: a.error,
      at: Number(a.at),
    }));
  }
}
