import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MetricRuleInput } from "../../src/core/metric-alerts/schema";
import type { MetricAlertStore, NewMetricNotification } from "../../src/core/ports/metric-alerts";

export interface MetricAlertStoreFixture {
  store: MetricAlertStore;
  /** Two organizations, the first with two projects. */
  organizations: [number, number];
  projects: [{ id: number; slug: string }, { id: number; slug: string }];
  /** A user notifications can go to. */
  userId: number;
  cleanup(): Promise<void>;
}

const rule = (name: string, projects: string[]) =>
  MetricRuleInput.parse({ name, aggregate: "count()", timeWindow: 5, projects, triggers: [{ label: "critical", alertThreshold: 10 }] });

/**
 * The rules and listing part of metric alerts' storage (src/core/ports/metric-alerts.ts): rules
 * kept per organization with their projects, evaluations and notifications listed newest first.
 * Delivery is test/contracts/delivery.ts.
 */
export function metricAlertStoreContract(name: string, make: () => Promise<MetricAlertStoreFixture>): void {
  describe(`${name}: metric alert rules and listings`, () => {
    let f: MetricAlertStoreFixture;
    let org = 0;
    let other = 0;

    beforeAll(async () => {
      f = await make();
      [org, other] = f.organizations;
    });
    afterAll(() => f.cleanup());

    it("keeps rules per organization with their projects, read, updated (due at once) and deleted only within it", async () => {
      const [web, api] = f.projects;
      const meta = { createdBy: null, now: 1_000 };
      const first = await f.store.insertRule(org, rule("errors", [web.slug]), [web.id], meta);
      expect(first).toMatchObject({
        organizationId: org,
        name: "errors",
        projects: [web],
        state: "ok",
        stateSince: 1_000,
        nextEvalAt: 1_000,
      });
      const second = await f.store.insertRule(org, rule("both", [web.slug, api.slug]), [web.id, api.id], meta);
      expect(second.projects.map((p) => p.id).sort()).toEqual([web.id, api.id].sort());
      expect((await f.store.rules(org)).map((r) => r.id)).toEqual([first.id, second.id]);
      expect(await f.store.rules(other)).toEqual([]);
      expect(await f.store.rule(org, first.id)).toEqual(first);
      expect(await f.store.rule(other, first.id)).toBeNull();

      expect(await f.store.updateRule(other, first.id, rule("x", [api.slug]), [api.id], 5_000)).toBeNull();
      const updated = await f.store.updateRule(org, first.id, rule("api errors", [api.slug]), [api.id], 5_000);
      expect(updated).toMatchObject({
        name: "api errors",
        projects: [api],
        state: "ok",
        stateSince: 1_000,
        updatedAt: 5_000,
        nextEvalAt: 5_000,
      });
      expect(await f.store.rule(org, first.id)).toEqual(updated);

      expect(await f.store.deleteRule(other, first.id)).toBe(false);
      expect(await f.store.deleteRule(org, first.id)).toBe(true);
      expect(await f.store.rule(org, first.id)).toBeNull();
      expect(await f.store.deleteRule(org, second.id)).toBe(true);
    });

    it("lists a rule's evaluations and an organization's notifications newest first, at most `limit`", async () => {
      const [web] = f.projects;
      const made = await f.store.insertRule(org, rule("listed", [web.slug]), [web.id], { createdBy: null, now: 0 });
      const note = (id: string, createdAt: number): NewMetricNotification => ({
        id,
        organizationId: org,
        ruleId: made.id,
        kind: "critical",
        details: {
          ruleName: "listed",
          orgSlug: "contract",
          aggregate: "count()",
          timeWindow: 5,
          query: "",
          environment: null,
          projects: [web.slug],
          thresholdType: "above",
          value: 12,
          threshold: 10,
          at: createdAt,
        },
        userId: f.userId,
        email: "a@example.com",
        createdAt,
      });
      // Two evaluations, a minute apart, each through the due rule's scope as the evaluator records them.
      for (const minute of [60_000, 120_000])
        await f.store.withDueRule(minute, (due, scope) =>
          scope.record(
            {
              ruleId: due.id,
              minute,
              value: minute / 10_000,
              state: "critical",
              transition: minute === 60_000 ? "critical" : null,
              at: minute,
            },
            { stateSince: 60_000, nextEvalAt: minute + 60_000 },
            minute === 60_000 ? [note("m1", minute)] : [],
          ),
        );
      await f.store.insertNotifications([note("m2", 130_000), note("m3", 125_000)]);
      expect(await f.store.evaluations(made.id, 10)).toEqual([
        { ruleId: made.id, minute: 120_000, value: 12, state: "critical", transition: null, at: 120_000 },
        { ruleId: made.id, minute: 60_000, value: 6, state: "critical", transition: "critical", at: 60_000 },
      ]);
      expect(await f.store.evaluations(made.id, 1)).toHaveLength(1);
      expect(await f.store.rule(org, made.id)).toMatchObject({ state: "critical", stateSince: 60_000, nextEvalAt: 180_000 });

      const listed = await f.store.notifications({ organizationId: org }, 10);
      expect(listed.map((n) => n.id)).toEqual(["m2", "m3", "m1"]);
      expect(listed[2]).toMatchObject({ ...note("m1", 60_000), status: "pending", attempts: 0 });
      expect((await f.store.notifications({ organizationId: org, ruleId: made.id }, 2)).map((n) => n.id)).toEqual(["m2", "m3"]);
      expect(await f.store.notifications({ organizationId: other }, 10)).toEqual([]);
    });
  });
}
