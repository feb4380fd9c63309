import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IssueReader } from "../../src/core/ports/issue-reader";
import type { OrgWorld } from "../support/org-world";

/** An issue to read: when it was last seen, its tag values with counts (first and last seen at the 4th, else 0), its fingerprints. */
export interface ReaderSeed {
  projectId: number;
  lastSeen?: number;
  tags?: Array<[string, string, number, number?]>;
  hashes?: string[];
}

export interface ReaderWorld extends OrgWorld {
  reader: IssueReader;
  /** Seeds an issue; returns its id and short number. */
  seed(issue: ReaderSeed): Promise<{ id: number; shortNumber: number }>;
  addHour(issueId: number, hour: number, count: number): Promise<void>;
  addActivity(issueId: number, entry: { type: string; data: Record<string, unknown>; userId: number | null; at: number }): Promise<void>;
  bookmark(issueId: number, userId: number): Promise<void>;
  cleanup(): Promise<void>;
}

/** What every IssueReader (src/core/ports/issue-reader.ts) answers, whatever stores the issues. */
export function issueReaderContract(name: string, make: () => Promise<ReaderWorld>): void {
  describe(`IssueReader contract: ${name}`, () => {
    let w: ReaderWorld;
    beforeAll(async () => {
      w = await make();
    });
    afterAll(() => w.cleanup());

    it("finds an issue by id or short number only within its organization", async () => {
      const { id, shortNumber } = await w.seed({ projectId: w.projectId });
      expect(await w.reader.inOrganization(w.orgId, id)).toMatchObject({
        issue: { id, project_id: w.projectId },
        project: { id: w.projectId, slug: w.projectSlug, organization_id: w.orgId },
      });
      expect(await w.reader.inOrganization(w.otherOrgId, id)).toBeNull();
      expect(await w.reader.organizationSlugOf(id)).toBe("acme");
      expect(await w.reader.organizationSlugOf(id + 1000)).toBeNull();
      expect(await w.reader.byShortNumber(w.orgId, w.projectSlug, shortNumber)).toMatchObject({ id });
      expect(await w.reader.byShortNumber(w.otherOrgId, w.projectSlug, shortNumber)).toBeNull();
      expect(await w.reader.byShortNumber(w.orgId, w.projectSlug, shortNumber + 100)).toBeNull();
    });

    it("reads an issue's tags by key and count, its hashes in order and its hours in a range", async () => {
      const { id } = await w.seed({
        projectId: w.projectId,
        tags: [
          ["os", "mac", 1],
          ["browser", "firefox", 2],
          ["os", "linux", 3],
        ],
        hashes: ["b", "a"],
      });
      expect(await w.reader.tags(id)).toEqual([
        { key: "browser", value: "firefox", timesSeen: 2 },
        { key: "os", value: "linux", timesSeen: 3 },
        { key: "os", value: "mac", timesSeen: 1 },
      ]);
      expect(await w.reader.hashes(id)).toEqual(["a", "b"]);
      for (const hour of [0, 1, 2]) await w.addHour(id, hour * 3_600_000, hour + 1);
      expect(await w.reader.hourly([id], 3_600_000, 3 * 3_600_000)).toEqual(
        expect.arrayContaining([
          { issueId: id, hour: 3_600_000, count: 2 },
          { issueId: id, hour: 7_200_000, count: 3 },
        ]),
      );
      expect(await w.reader.hourly([id], 3_600_000, 3 * 3_600_000)).toHaveLength(2);
      expect(await w.reader.hourly([], 0, 1)).toEqual([]);
    });

    it("reads activity newest first with its author, comments, bookmarks, people and teams", async () => {
      const { id } = await w.seed({ projectId: w.projectId });
      await w.addActivity(id, { type: "note", data: { text: "first" }, userId: w.memberId, at: 1 });
      await w.addActivity(id, { type: "note", data: { text: "second" }, userId: null, at: 2 });
      await w.addActivity(id, { type: "set_resolved", data: {}, userId: null, at: 3 });
      const activity = await w.reader.activity(id, 2);
      expect(activity.map((a) => [a.type, a.data, a.createdAt, a.user?.id ?? null])).toEqual([
        ["set_resolved", {}, 3, null],
        ["note", { text: "second" }, 2, null],
      ]);
      expect((await w.reader.activity(id, 5))[2]?.user).toEqual({
        id: w.memberId,
        email: "member@example.com",
        name: "member@example.com",
      });
      expect(await w.reader.commentCounts([id, -1])).toEqual(new Map([[id, 2]]));
      await w.bookmark(id, w.memberId);
      expect(await w.reader.bookmarked([id], w.memberId)).toEqual(new Set([id]));
      expect(await w.reader.bookmarked([id], w.outsiderId)).toEqual(new Set());
      expect((await w.reader.people([w.memberId, -1])).map((p) => p.email)).toEqual(["member@example.com"]);
      expect(await w.reader.teams([w.teamId])).toEqual([{ id: w.teamId, slug: w.teamSlug, name: w.teamSlug }]);
      expect([await w.reader.people([]), await w.reader.teams([]), await w.reader.commentCounts([])]).toEqual([[], [], new Map()]);
    });

    it("sums tag values over the most recently seen issues, and one key's values by prefix", async () => {
      await w.seed({ projectId: w.otherOrgProjectId, lastSeen: 100, tags: [["env", "staging", 1]] });
      await w.seed({ projectId: w.otherOrgProjectId, lastSeen: 50, tags: [["env", "prod", 5]] });
      await w.seed({ projectId: w.otherOrgProjectId, lastSeen: 10, tags: [["env", "prod", 7]] });
      const projectIds = [w.otherOrgProjectId];
      expect(await w.reader.recentTagValues(projectIds, { issues: 1, rows: 10 })).toEqual([{ key: "env", value: "staging" }]);
      expect(await w.reader.recentTagValues(projectIds, { issues: 3, rows: 10 })).toMatchObject([{ value: "prod" }, { value: "staging" }]);
      expect(await w.reader.recentTagValues(projectIds, { issues: 3, rows: 1 })).toHaveLength(1);
      expect(await w.reader.tagValues(projectIds, "env", { limit: 10 })).toEqual([
        { value: "prod", count: 12, firstSeen: 0, lastSeen: 0 },
        { value: "staging", count: 1, firstSeen: 0, lastSeen: 0 },
      ]);
      expect((await w.reader.tagValues(projectIds, "env", { prefix: "st", limit: 10 })).map((v) => v.value)).toEqual(["staging"]);
      expect(await w.reader.tagValues(projectIds, "env", { limit: 1 })).toHaveLength(1);
      expect([await w.reader.recentTagValues([], { issues: 1, rows: 1 }), await w.reader.tagValues([], "env", { limit: 1 })]).toEqual([
        [],
        [],
      ]);
    });

    it("reads an issue's tag keys with totals, one key's values in any order by offset, and projects' keys", async () => {
      const { id } = await w.seed({
        projectId: w.projectId,
        lastSeen: 50,
        tags: [
          ["os", "mac", 1, 30],
          ["os", "linux", 3, 10],
          ["os", "bsd", 2, 20],
          ["browser", "firefox", 4, 40],
        ],
      });
      expect(await w.reader.issueTagKeys(id)).toEqual([
        { key: "browser", totalValues: 4, uniqueValues: 1 },
        { key: "os", totalValues: 6, uniqueValues: 3 },
      ]);
      expect(await w.reader.issueTagKeys(id, ["os", "none"])).toEqual([{ key: "os", totalValues: 6, uniqueValues: 3 }]);
      expect(await w.reader.issueTagKeys(id, [])).toEqual([]);
      const values = (by: "count" | "lastSeen" | "firstSeen", descending: boolean, offset = 0, limit = 10) =>
        w.reader.issueTagValues(id, "os", { order: { by, descending }, offset, limit }).then((rows) => rows.map((r) => r.value));
      expect(await values("count", true)).toEqual(["linux", "bsd", "mac"]);
      expect(await values("lastSeen", true)).toEqual(["mac", "bsd", "linux"]);
      expect(await values("firstSeen", false)).toEqual(["linux", "bsd", "mac"]);
      expect(await values("count", true, 1, 1)).toEqual(["bsd"]);
      expect((await w.reader.issueTagValues(id, "os", { order: { by: "count", descending: true }, offset: 0, limit: 1 }))[0]).toEqual({
        value: "linux",
        count: 3,
        firstSeen: 10,
        lastSeen: 10,
      });
      const project = [w.projectId];
      expect(await w.reader.tagKeys(project, { limit: 10 })).toEqual(
        expect.arrayContaining([
          { key: "os", totalValues: expect.any(Number) as number },
          { key: "browser", totalValues: expect.any(Number) as number },
        ]),
      );
      // Seen since 25: the issue (last seen 50), and of its values mac (30) and firefox (40).
      expect(await w.reader.tagKeys(project, { since: 25, limit: 10 })).toEqual([
        { key: "browser", totalValues: 4 },
        { key: "os", totalValues: 1 },
      ]);
      expect(await w.reader.tagKeys(project, { since: 25, limit: 1 })).toHaveLength(1);
      expect(await w.reader.tagKeys([], { limit: 10 })).toEqual([]);
    });
  });
}
