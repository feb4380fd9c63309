import { sql, type Kysely, type Selectable } from "kysely";
import type { MetricFilter } from "../core/metric-alerts/query";
import type { Aggregate, MetricRule, MetricState, MetricTrigger, ValidMetricRule } from "../core/metric-alerts/schema";
import type { Recipient } from "../core/ports/alerts";
import type { MetricAlertStore, MetricEvaluation, MetricEvaluationScope } from "../core/ports/metric-alerts";
import { KyselyAlertStore } from "./alerts-store";
import type { Dialect } from "./connect";
import { KyselyMetricAlertDelivery } from "./metric-alert-delivery-store";
import type { DB } from "./schema";
import type { MetricAlertRulesTable } from "./schema-metric-alerts";

type RuleRow = Selectable<MetricAlertRulesTable>;

/** Triggers were validated before they were written (src/core/metric-alerts/schema.ts). */
const storedTriggers = (json: string) => JSON.parse(json) as MetricTrigger[];

function ruleRecord(r: RuleRow, projects: { id: number; slug: string }[]): MetricRule {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    aggregate: r.aggregate as Aggregate,
    timeWindow: r.time_window,
    query: r.query,
    environment: r.environment,
    projects,
    thresholdType: r.threshold_type === 1 ? "below" : "above",
    resolveThreshold: r.resolve_threshold === null ? null : Number(r.resolve_threshold),
    triggers: storedTriggers(r.triggers),
    status: r.status === "disabled" ? "disabled" : "active",
    state: r.state as MetricState,
    stateSince: Number(r.state_since),
    nextEvalAt: Number(r.next_eval_at),
    createdBy: r.created_by,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const ruleColumns = (rule: ValidMetricRule) => ({
  name: rule.name,
  aggregate: rule.aggregate,
  query: rule.query,
  environment: rule.environment,
  time_window: rule.timeWindow,
  threshold_type: rule.thresholdType === "below" ? 1 : 0,
  resolve_threshold: rule.resolveThreshold,
  triggers: JSON.stringify(rule.triggers),
  status: rule.status,
});

async function withProjects(db: Kysely<DB>, rows: RuleRow[]): Promise<MetricRule[]> {
  if (rows.length === 0) return [];
  const links = await db
    .selectFrom("metric_alert_rule_projects")
    .innerJoin("projects", "projects.id", "metric_alert_rule_projects.project_id")
    .select(["metric_alert_rule_projects.rule_id", "projects.id", "projects.slug"])
    .where(
      "metric_alert_rule_projects.rule_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("projects.slug")
    .execute();
  return rows.map((r) =>
    ruleRecord(
      r,
      links.filter((l) => l.rule_id === r.id).map(({ id, slug }) => ({ id, slug })),
    ),
  );
}

async function setProjects(db: Kysely<DB>, ruleId: number, projectIds: number[]): Promise<void> {
  await db.deleteFrom("metric_alert_rule_projects").where("rule_id", "=", ruleId).execute();
  if (projectIds.length)
    await db
      .insertInto("metric_alert_rule_projects")
      .values(projectIds.map((project_id) => ({ rule_id: ruleId, project_id })))
      .execute();
}

/** The aggregate over minute buckets (decision 0020): a range of the primary key per project, never the events. */
async function measure(
  db: Kysely<DB>,
  q: { aggregate: Aggregate; projectIds: number[]; environment: string | null; filter: MetricFilter; from: number; to: number },
): Promise<number> {
  if (q.projectIds.length === 0) return 0;
  const { filter } = q;
  const table = q.aggregate === "count()" ? "metric_minutes" : "metric_minute_users";
  let query = db.selectFrom(table).where("project_id", "in", q.projectIds).where("minute", ">=", q.from).where("minute", "<=", q.to);
  if (q.environment !== null) query = query.where("environment", "=", q.environment);
  if (filter.environments)
    query = filter.environments.length ? query.where("environment", "in", filter.environments) : query.where(sql<boolean>`1 = 0`);
  if (filter.excludedEnvironments.length) query = query.where("environment", "not in", filter.excludedEnvironments);
  if (filter.levels) query = filter.levels.length ? query.where("level", "in", filter.levels) : query.where(sql<boolean>`1 = 0`);
  if (filter.excludedLevels.length) query = query.where("level", "not in", filter.excludedLevels);
  if (table === "metric_minutes") {
    const row = await query.select((eb) => eb.fn.sum<number | string | null>("count").as("n")).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
  // A user seen in several projects, environments or levels counts once.
  const row = await db
    .selectFrom(query.select("user_key").distinct().as("u"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Metric alert rules, their evaluation and counts (decision 0020); notifications come from `KyselyMetricAlertDelivery`. */
export class KyselyMetricAlertStore extends KyselyMetricAlertDelivery implements MetricAlertStore {
  constructor(db: Kysely<DB>, dialect: Dialect) {
    super(db, dialect);
  }

  async rules(organizationId: number): Promise<MetricRule[]> {
    const rows = await this.db
      .selectFrom("metric_alert_rules")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .orderBy("id")
      .execute();
    return withProjects(this.db, rows);
  }

  async rule(organizationId: number, id: number): Promise<MetricRule | null> {
    const row = await this.db
      .selectFrom("metric_alert_rules")
      .selectAll()
      .where("organization_id", "=", organizationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? ((await withProjects(this.db, [row]))[0] ?? null) : null;
  }

  insertRule(organizationId: number, rule: ValidMetricRule, projectIds: number[], meta: { createdBy: number | null; now: number }) {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("metric_alert_rules")
        .values({
          organization_id: organizationId,
          ...ruleColumns(rule),
          state: "ok",
          state_since: meta.now,
          next_eval_at: meta.now,
          created_by: meta.createdBy,
          created_at: meta.now,
          updated_at: meta.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await setProjects(trx, row.id, projectIds);
      return (await withProjects(trx, [row]))[0]!;
    });
  }

  updateRule(organizationId: number, id: number, rule: ValidMetricRule, projectIds: number[], now: number) {
    return this.db.transaction().execute(async (trx) => {
      // A changed rule is evaluated at the next tick; its state stays until that evaluation says otherwise.
      const row = await trx
        .updateTable("metric_alert_rules")
        .set({ ...ruleColumns(rule), updated_at: now, next_eval_at: now })
        .where("organization_id", "=", organizationId)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
      if (!row) return null;
      await setProjects(trx, row.id, projectIds);
      return (await withProjects(trx, [row]))[0] ?? null;
    });
  }

  async deleteRule(organizationId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("metric_alert_rules")
      .where("organization_id", "=", organizationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async evaluations(ruleId: number, limit: number): Promise<MetricEvaluation[]> {
    const rows = await this.db
      .selectFrom("metric_alert_evaluations")
      .selectAll()
      .where("rule_id", "=", ruleId)
      .orderBy("minute", "desc")
      .limit(limit)
      .execute();
    return rows.map((e) => ({
      ruleId: e.rule_id,
      minute: Number(e.minute),
      value: Number(e.value),
      state: e.state as MetricState,
      transition: e.transition as MetricEvaluation["transition"],
      at: Number(e.at),
    }));
  }

  async anyRuleDue(now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("metric_alert_rules")
      .select("id")
      .where("status", "=", "active")
      .where("next_eval_at", "<=", now)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  withDueRule(now: number, evaluate: (rule: MetricRule, scope: MetricEvaluationScope) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom("metric_alert_rules")
        .selectAll()
        .where("status", "=", "active")
        .where("next_eval_at", "<=", now)
        .orderBy("next_eval_at")
        .orderBy("id")
        .limit(1);
      if (this.dialect === "postgres") query = query.forUpdate().skipLocked();
      const row = await query.executeTakeFirst();
      if (!row) return false;
      const rule = (await withProjects(trx, [row]))[0]!;
      const org = await trx.selectFrom("organizations").select("slug").where("id", "=", rule.organizationId).executeTakeFirstOrThrow();
      const people = new KyselyAlertStore(trx, this.dialect);
      const delivery = new KyselyMetricAlertDelivery(trx, this.dialect);
      const scope: MetricEvaluationScope = {
        orgSlug: org.slug,
        measure: (q) => measure(trx, q),
        teamMembers: (organizationId: number, teamId: number): Promise<Recipient[]> => people.teamMembers(organizationId, teamId),
        member: (organizationId: number, userId: number): Promise<Recipient[]> => people.member(organizationId, userId),
        async record(evaluation, next, notifications) {
          // One evaluation per rule and minute: a second one (a clock moved back) changes nothing.
          const inserted = await trx
            .insertInto("metric_alert_evaluations")
            .values({
              rule_id: evaluation.ruleId,
              minute: evaluation.minute,
              value: evaluation.value,
              state: evaluation.state,
              transition: evaluation.transition,
              at: evaluation.at,
            })
            .onConflict((oc) => oc.columns(["rule_id", "minute"]).doNothing())
            .returning("id")
            .executeTakeFirst();
          const base = trx.updateTable("metric_alert_rules").where("id", "=", evaluation.ruleId);
          if (!inserted) {
            await base.set({ next_eval_at: next.nextEvalAt }).execute();
            return;
          }
          await base.set({ state: evaluation.state, state_since: next.stateSince, next_eval_at: next.nextEvalAt }).execute();
          await delivery.insertNotifications(notifications);
        },
      };
      await evaluate(rule, scope);
      return true;
    });
  }

  async pruneCounts(before: number): Promise<void> {
    await this.db.deleteFrom("metric_minutes").where("minute", "<", before).execute();
    await this.db.deleteFrom("metric_minute_users").where("minute", "<", before).execute();
  }
}
