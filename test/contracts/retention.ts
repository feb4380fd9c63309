import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RetentionStore } from "../../src/core/ports/retention";

/** Hour-keyed rows of one project and issue: outcomes, session counts and members, issue hours and hour users. */
export type HourlyRows = Record<"outcomes" | "session_counts" | "session_distinct" | "issue_hourly" | "issue_hour_users", number>;

/** Seeds and reads the rows retention deletes; every time is epoch milliseconds. */
export interface RetentionFixture {
  store: RetentionStore;
  projectId: number;
  otherProjectId: number;
  addLogs(projectId: number, times: readonly number[]): Promise<void>;
  /** Raw items of `bytes` each. */
  addRawItems(projectId: number, times: readonly number[], bytes?: number): Promise<void>;
  logTimes(projectId: number): Promise<number[]>;
  rawItemTimes(projectId: number): Promise<number[]>;
  addIssue(projectId: number, firstSeen: number, timesSeen: number): Promise<number>;
  addEvents(projectId: number, issueId: number | null, times: readonly number[]): Promise<void>;
  /** The project's event times, of one issue or of none, oldest first. */
  eventTimes(projectId: number, issueId: number | null): Promise<number[]>;
  addHourly(projectId: number, issueId: number, hours: readonly number[]): Promise<void>;
  hourly(projectId: number, issueId: number): Promise<HourlyRows>;
  /** Outbox changes of the issue made at these times, and a consumer standing at `position`. */
  addChanges(projectId: number, issueId: number, times: readonly number[], position: number): Promise<void>;
  changeSeqs(): Promise<number[]>;
  addDeadLetter(projectId: number, createdAt: number): Promise<void>;
  /** Body lengths of the project's dead letters, oldest first. */
  deadLetterBodies(projectId: number): Promise<number[]>;
  cleanup(): Promise<void>;
}

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 22, 12);
const ago = (days: number) => NOW - days * DAY;
const CUTOFF = ago(90);

export function retentionStoreContract(name: string, make: () => Promise<RetentionFixture>): void {
  describe(`RetentionStore: ${name}`, () => {
    let f: RetentionFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("names the projects of a scope, and deletes one project's old items a batch at a time, whatever unit their time is in", async () => {
      const all = await f.store.projectIds(null);
      expect(all).toEqual(expect.arrayContaining([f.projectId, f.otherProjectId]));
      expect(await f.store.projectIds({ op: "=", projectId: f.projectId })).toEqual([f.projectId]);
      expect(await f.store.projectIds({ op: "<>", projectId: f.projectId })).not.toContain(f.projectId);
      for (const add of [f.addLogs, f.addRawItems]) {
        await add(f.projectId, [ago(200), ago(100), ago(91), ago(30)]);
        await add(f.otherProjectId, [ago(100)]);
      }
      expect(await f.store.deleteProjectItems("logs", f.projectId, CUTOFF, 2)).toBe(2);
      expect(await f.store.deleteProjectItems("logs", f.projectId, CUTOFF, 2)).toBe(1);
      expect(await f.store.deleteProjectItems("logs", f.projectId, CUTOFF, 2)).toBe(0);
      expect(await f.store.deleteProjectItems("raw_items", f.projectId, CUTOFF, 10)).toBe(3);
      expect(await f.logTimes(f.projectId)).toEqual([ago(30)]);
      expect(await f.rawItemTimes(f.projectId)).toEqual([ago(30)]);
      expect(await f.logTimes(f.otherProjectId)).toEqual([ago(100)]);
    });

    it("deletes old events without an issue, and of the issues first seen before the cut-off, in batches", async () => {
      const old = await f.addIssue(f.projectId, ago(200), 3);
      const young = await f.addIssue(f.projectId, ago(10), 1);
      await f.addEvents(f.projectId, null, [ago(150), ago(120), ago(5)]);
      await f.addEvents(f.otherProjectId, null, [ago(150)]);
      await f.addEvents(f.projectId, old, [ago(200), ago(100), ago(1)]);
      await f.addEvents(f.projectId, young, [ago(10)]);
      const scope = { op: "=" as const, projectId: f.projectId };
      expect(await f.store.deleteEventsWithoutIssue(scope, CUTOFF, 1)).toBe(1);
      expect(await f.store.deleteEventsWithoutIssue(scope, CUTOFF, 5)).toBe(1);
      expect(await f.eventTimes(f.projectId, null)).toEqual([ago(5)]);
      expect(await f.eventTimes(f.otherProjectId, null)).toEqual([ago(150)]);
      expect(await f.store.issuesFirstSeenBy(scope, CUTOFF)).toEqual([old]);
      expect(await f.store.issuesFirstSeenBy({ op: "<>", projectId: f.projectId }, CUTOFF)).toEqual([]);
      expect(await f.store.deleteIssueEvents([old, young], CUTOFF, 5)).toBe(2);
      expect(await f.store.deleteIssueEvents([], CUTOFF, 5)).toBe(0);
      expect(await f.eventTimes(f.projectId, old)).toEqual([ago(1)]);
      expect(await f.eventTimes(f.projectId, young)).toEqual([ago(10)]);
    });

    it("finds the issues over an event cap and deletes their oldest events", async () => {
      const loud = await f.addIssue(f.projectId, ago(50), 9);
      const quiet = await f.addIssue(f.projectId, ago(50), 2);
      await f.addEvents(f.projectId, loud, [ago(5), ago(50), ago(20), ago(40), ago(30)]);
      await f.addEvents(f.projectId, quiet, [ago(50), ago(40)]);
      const seen = await f.store.issuesSeenMoreThan(3);
      expect(seen).toContain(loud);
      expect(seen).not.toContain(quiet);
      expect(await f.store.crowdedIssues([loud, quiet], 3)).toEqual([{ issueId: loud, events: 5 }]);
      expect(await f.store.crowdedIssues([], 3)).toEqual([]);
      expect(await f.store.deleteOldestEvents(loud, 2)).toBe(2);
      expect(await f.eventTimes(f.projectId, loud)).toEqual([ago(30), ago(20), ago(5)]);
    });

    it("deletes hour-keyed rows before the cut-off, in scope", async () => {
      const mine = await f.addIssue(f.projectId, ago(200), 1);
      const theirs = await f.addIssue(f.otherProjectId, ago(200), 1);
      for (const [projectId, issueId] of [
        [f.projectId, mine],
        [f.otherProjectId, theirs],
      ] as const)
        await f.addHourly(projectId, issueId, [ago(100), ago(95), ago(10)]);
      const scope = { op: "=" as const, projectId: f.projectId };
      await f.store.deleteOutcomes(f.projectId, CUTOFF);
      expect(await f.store.deleteSessionCounts(scope, CUTOFF)).toBe(2);
      expect(await f.store.deleteSessionMembers(scope, CUTOFF)).toBe(2);
      await f.store.deleteIssueHours(scope, CUTOFF);
      await f.store.deleteIssueHourUsers(scope, CUTOFF);
      const one = { outcomes: 1, session_counts: 1, session_distinct: 1, issue_hourly: 1, issue_hour_users: 1 };
      expect(await f.hourly(f.projectId, mine)).toEqual(one);
      const three = { outcomes: 3, session_counts: 3, session_distinct: 3, issue_hourly: 3, issue_hour_users: 3 };
      expect(await f.hourly(f.otherProjectId, theirs)).toEqual(three);
      await f.store.deleteIssueHours({ op: "<>", projectId: f.projectId }, CUTOFF);
      expect(await f.hourly(f.otherProjectId, theirs)).toMatchObject({ issue_hourly: 1, issue_hour_users: 3 });
    });

    it("deletes old issue changes only once every consumer has taken them", async () => {
      const issue = await f.addIssue(f.projectId, ago(200), 1);
      await f.addChanges(f.projectId, issue, [ago(120), ago(110), ago(100), ago(10)], 1);
      await f.store.deleteTakenChanges(null, CUTOFF);
      expect(await f.changeSeqs()).toEqual([2, 3, 4]);
    });

    it("empties the bodies of dead letters set aside before the cut-off", async () => {
      await f.addDeadLetter(f.projectId, ago(10));
      await f.addDeadLetter(f.projectId, ago(1));
      expect(await f.store.emptyDeadLetterBodies(ago(7))).toBe(1);
      expect(await f.store.emptyDeadLetterBodies(ago(7))).toBe(0);
      const [emptied, kept] = await f.deadLetterBodies(f.projectId);
      expect(emptied).toBe(0);
      expect(kept).toBeGreaterThan(0);
    });

    it("gives every freed page back, where the file keeps them", async () => {
      await f.addRawItems(
        f.projectId,
        Array.from({ length: 16 }, () => ago(300)),
        64 * 1024,
      );
      expect(await f.store.deleteProjectItems("raw_items", f.projectId, CUTOFF, 100)).toBe(16);
      const free = await f.store.freeSpace();
      if (!free) return;
      expect(free.pages * free.pageBytes).toBeGreaterThan(16 * 60 * 1024);
      await f.store.givePagesBack(free.pages);
      expect((await f.store.freeSpace())?.pages).toBe(0);
    });
  });
}
