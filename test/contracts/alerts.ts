import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_FREQUENCY } from "../../src/core/alerts/frequency-conditions";
import { DEFAULT_RULE, RuleInput, WEBHOOK_ACTION } from "../../src/core/alerts/rule-schema";
import type { AlertStore, NewNotification } from "../../src/core/ports/alerts";

export interface AlertStoreFixture {
  store: AlertStore;
  /** Two projects. */
  projects: [number, number];
  /** A new issue of the project with this title. */
  issue(projectId: number, title: string): Promise<number>;
  cleanup(): Promise<void>;
}

const FREQUENT = RuleInput.parse({
  name: "Often",
  frequency: 60,
  environment: "production",
  conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: "1h" }],
  actions: [{ id: WEBHOOK_ACTION, url: "https://hook.example.com/" }],
  status: "disabled",
});

/**
 * The rules and listing part of issue alerts' storage (src/core/ports/alerts.ts): rules kept per
 * project, and notifications and attempts as the Alerts page lists them. Delivery is
 * test/contracts/delivery.ts.
 */
export function alertStoreContract(name: string, make: () => Promise<AlertStoreFixture>): void {
  describe(`${name}: alert rules and notifications`, () => {
    let f: AlertStoreFixture;
    let project = 0;
    let other = 0;

    beforeAll(async () => {
      f = await make();
      [project, other] = f.projects;
    });
    afterAll(() => f.cleanup());

    it("keeps rules per project: inserted with a secret of their own, read, updated and deleted only within their project", async () => {
      // A new project may come with a default rule already.
      const [before, otherBefore] = [await f.store.rules(project), await f.store.rules(other)];
      const first = await f.store.insertRule(project, DEFAULT_RULE, { isDefault: true, createdBy: null, now: 1_000 });
      const second = await f.store.insertRule(project, FREQUENT, { isDefault: false, createdBy: null, now: 2_000 });
      expect(first).toMatchObject({
        ...DEFAULT_RULE,
        projectId: project,
        status: "active",
        isDefault: true,
        createdAt: 1_000,
        updatedAt: 1_000,
      });
      expect(second).toMatchObject({ ...FREQUENT, isDefault: false });
      expect(first.secret).toMatch(/^[0-9a-f]{32,}$/);
      expect(second.secret).not.toBe(first.secret);
      expect(await f.store.rules(project)).toEqual([...before, first, second]);
      expect(await f.store.rules(other)).toEqual(otherBefore);
      expect(await f.store.rule(project, second.id)).toEqual(second);
      expect(await f.store.rule(other, second.id)).toBeNull();

      expect(await f.store.updateRule(other, first.id, FREQUENT, 3_000)).toBeNull();
      const updated = await f.store.updateRule(project, first.id, { ...DEFAULT_RULE, name: "Renamed" }, 3_000);
      expect(updated).toEqual({ ...first, name: "Renamed", updatedAt: 3_000 });
      expect(await f.store.rule(project, first.id)).toEqual(updated);

      expect(await f.store.deleteRule(other, first.id)).toBe(false);
      expect(await f.store.deleteRule(project, first.id)).toBe(true);
      expect(await f.store.deleteRule(project, first.id)).toBe(false);
      expect(await f.store.rules(project)).toEqual([...before, second]);
    });

    it("lists notifications newest first by project or issue, with the issue's title, and each one's attempts in order", async () => {
      const rule = await f.store.insertRule(project, DEFAULT_RULE, { isDefault: false, createdBy: null, now: 0 });
      const [a, b] = [await f.issue(project, "TypeError: a"), await f.issue(project, "RangeError: b")];
      const note = (id: string, issueId: number, createdAt: number): NewNotification => ({
        id,
        projectId: project,
        ruleId: rule.id,
        issueId,
        changeSeq: createdAt,
        changeKind: "created",
        // A web channel: an email names a person, which this suite has none of.
        channel: "webhook",
        target: "https://hook.example.com/",
        userId: null,
        createdAt,
      });
      await f.store.insertNotifications([note("n1", a, 1_000), note("n2", b, 3_000), note("n3", a, 2_000)]);
      const listed = await f.store.notifications({ projectId: project });
      expect(listed.map((n) => [n.id, n.issueTitle])).toEqual([
        ["n2", "RangeError: b"],
        ["n3", "TypeError: a"],
        ["n1", "TypeError: a"],
      ]);
      expect(listed[0]).toMatchObject({ ...note("n2", b, 3_000), status: "pending", attempts: 0 });
      expect((await f.store.notifications({ issueId: a })).map((n) => n.id)).toEqual(["n3", "n1"]);
      expect(await f.store.notifications({ projectId: other })).toEqual([]);

      const attempt = (notificationId: string, n: number) => ({
        notificationId,
        attempt: n,
        status: "failed" as const,
        error: `try ${n}`,
        at: n,
      });
      const retry = { status: "pending" as const, nextAttemptAt: 0, messageId: null, sentAt: null };
      for (const [id, n] of [
        ["n1", 1],
        ["n3", 1],
        ["n1", 2],
      ] as const)
        await f.store.recordAttempt(attempt(id, n), retry);
      expect(await f.store.attempts("n1")).toMatchObject([attempt("n1", 1), attempt("n1", 2)]);
      expect(await f.store.attemptsOf(["n1", "n3", "n2"])).toMatchObject([attempt("n1", 1), attempt("n1", 2), attempt("n3", 1)]);
      expect(await f.store.attemptsOf([])).toEqual([]);
    });
  });
}
