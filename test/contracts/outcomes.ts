import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutcomeCount, OutcomeStore } from "../../src/core/ports/outcomes";

export interface OutcomeStoreSubject {
  store: OutcomeStore;
  /** Two projects of one organization, with no outcomes yet. */
  projects: [number, number];
  cleanup(): Promise<void>;
}

const HOUR = 3_600_000;
const NOW = 1_700_000_000_000;
const HOUR_START = Math.floor(NOW / HOUR) * HOUR;

const count = (projectId: number, category: string, outcome: OutcomeCount["outcome"], reason: string, quantity: number, at = NOW) => ({
  projectId,
  category,
  outcome,
  reason,
  quantity,
  at,
});

/** One subject serves the whole suite: each case writes to hours of its own. */
export function outcomeStoreContract(name: string, make: () => Promise<OutcomeStoreSubject>): void {
  describe(`OutcomeStore: ${name}`, () => {
    let s: OutcomeStoreSubject;
    beforeAll(async () => {
      s = await make();
    });
    afterAll(() => s.cleanup());

    it("adds counts into their hour across calls, merging texts that store alike and skipping empty counts", async () => {
      const [web, api] = s.projects;
      const hour = HOUR_START + 100 * HOUR;
      const at = hour + 10;
      await s.store.record([
        count(web, "error", "accepted", "", 2, at),
        count(web, "error", "accepted", "", 3, at + 60_000),
        count(web, "error", "invalid", "bad\u0000json", 1, at),
        count(web, "error", "invalid", "badjson", 1, at),
        count(web, "span", "accepted", "", 0, at),
        count(api, "error", "accepted", "", 9, at),
      ]);
      await s.store.record([count(web, "error", "accepted", "", 4, at), count(web, "error", "accepted", "", 1, at + HOUR)]);
      expect(await s.store.ofProject(web, hour)).toEqual([
        { hour, category: "error", outcome: "accepted", reason: "", quantity: 9 },
        { hour, category: "error", outcome: "invalid", reason: expect.stringMatching(/^bad.?json$/), quantity: 2 },
        { hour: hour + HOUR, category: "error", outcome: "accepted", reason: "", quantity: 1 },
      ]);
      expect(await s.store.ofProject(web, hour + HOUR)).toHaveLength(1);
    });

    it("sums filtered errors by project and reason since the given time, leaving out other categories and outcomes", async () => {
      const [web, api] = s.projects;
      const at = NOW + 200 * HOUR;
      await s.store.record([
        count(web, "error", "filtered", "localhost", 2, at),
        count(web, "error", "filtered", "localhost", 1, at - 2 * HOUR),
        count(web, "error", "filtered", "web-crawlers", 5, at),
        count(web, "error", "filtered", "localhost", 7, at - 48 * HOUR),
        count(web, "transaction", "filtered", "localhost", 9, at),
        count(web, "error", "rate_limited", "key_quota", 4, at),
        count(api, "error", "filtered", "release-version", 1, at),
      ]);
      const byReason = <T extends { projectId: number; reason: string }>(rows: T[]) =>
        [...rows].sort((a, b) => a.projectId - b.projectId || a.reason.localeCompare(b.reason));
      expect(byReason(await s.store.filteredErrors([web, api], at - 24 * HOUR))).toEqual(
        byReason([
          { projectId: web, reason: "localhost", quantity: 3 },
          { projectId: web, reason: "web-crawlers", quantity: 5 },
          { projectId: api, reason: "release-version", quantity: 1 },
        ]),
      );
      expect(await s.store.filteredErrors([api], at - 24 * HOUR)).toEqual([{ projectId: api, reason: "release-version", quantity: 1 }]);
      expect(await s.store.filteredErrors([], 0)).toEqual([]);
    });

    it("reads several projects' hours within [since, until), leaving out other projects", async () => {
      const [web, api] = s.projects;
      const hour = HOUR_START + 300 * HOUR;
      await s.store.record([
        count(web, "error", "accepted", "", 2, hour),
        count(api, "transaction", "filtered", "localhost", 3, hour + HOUR),
        count(web, "error", "accepted", "", 5, hour + 2 * HOUR),
        count(web, "error", "accepted", "", 7, hour - HOUR),
      ]);
      expect(await s.store.ofProjects([web, api], hour, hour + 2 * HOUR)).toEqual([
        { projectId: web, hour, category: "error", outcome: "accepted", reason: "", quantity: 2 },
        { projectId: api, hour: hour + HOUR, category: "transaction", outcome: "filtered", reason: "localhost", quantity: 3 },
      ]);
      expect(await s.store.ofProjects([api], hour, hour + HOUR)).toEqual([]);
      expect(await s.store.ofProjects([], 0, hour * 2)).toEqual([]);
    });
  });
}
