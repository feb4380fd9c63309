import { randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { AlertRule, ValidRule } from "../core/alerts/rule-schema";
import type { WindowCount } from "../core/alerts/frequency-conditions";
import { windowSpan } from "../core/issues/window-counts";
import { countsInSpan } from "./window-counts";
import { newestVersions } from "./release-order";
import type { AlertIssue, AlertStore, Recipient } from "../core/ports/alerts";
import type { DB } from "./schema";
import type { AlertRulesTable } from "./schema-alerts";
import { KyselyAlertDelivery } from "./alert-delivery-store";

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
    secret: r.secret ?? "",
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
      // Every rule may sign webhooks: its secret is made with it (decision 0018).
      secret: randomBytes(32).toString("hex"),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return ruleRecord(row);
}

/** The rules and the consumer's reads; notifications and their delivery come from `KyselyAlertDelivery`. */
export class KyselyAlertStore extends KyselyAlertDelivery implements AlertStore {
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
      .select([
        "issues.id",
        "issues.project_id",
        "projects.organization_id",
        "issues.level",
        "issues.last_environment",
        "issues.first_seen",
        "issues.last_release",
        "issues.assignee_id",
        "issues.assignee_team_id",
      ])
      .where("issues.id", "=", issueId)
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          projectId: row.project_id,
          organizationId: row.organization_id,
          level: row.level,
          environment: row.last_environment,
          firstSeen: Number(row.first_seen),
          lastRelease: row.last_release,
          assigneeId: row.assignee_id,
          assigneeTeamId: row.assignee_team_id,
        }
      : null;
  }

  windowCounts(issueId: number, minutes: number, at: number): Promise<WindowCount> {
    return countsInSpan(this.db, issueId, windowSpan(minutes, at));
  }

  async latestRelease(projectId: number): Promise<string | null> {
    const [version] = await newestVersions(this.db, projectId, 1);
    return version ?? null;
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
}
