import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Issue } from "../../src/core/issues/issue";
import type { IssueChangeKind, NewIssueChange } from "../../src/core/outbox/changes";
import type { IssueTriage } from "../../src/core/ports/issue-triage";
import type { OrgWorld } from "../support/org-world";

/** An issue to start from: counts and times, tag values and the fingerprints that lead to it. */
export interface TriageSeed {
  projectId: number;
  firstSeen: number;
  timesSeen?: number;
  tags?: Array<[string, string]>;
  hashes?: string[];
  /** Already merged into this issue, before merges recorded the hashes they moved. */
  mergedInto?: number;
}

/** The organizations of OrgWorld, and released versions in its first project. */
export interface TriageWorld extends OrgWorld {
  triage: IssueTriage;
  /** Versions of releases linked to `projectId`, oldest first. */
  versions: string[];
  seed(issue: TriageSeed): Promise<number>;
  issue(issueId: number): Promise<Issue>;
  /** The outbox's changes of an issue, in order. */
  changes(issueId: number): Promise<{ kind: string; data: Record<string, unknown>; userId: number | null }[]>;
  bookmarked(issueId: number, userId: number): Promise<boolean>;
  tags(issueId: number): Promise<Array<[string, string, number]>>;
  hashes(issueId: number): Promise<string[]>;
  cleanup(): Promise<void>;
}

const change = (issue: Issue, kind: IssueChangeKind, data: Record<string, unknown> = {}): NewIssueChange => ({
  projectId: issue.project_id,
  issueId: issue.id,
  kind,
  data,
  userId: null,
  at: 1,
});

/** What every IssueTriage (src/core/ports/issue-triage.ts) does, whatever stores it. */
export function issueTriageContract(name: string, make: () => Promise<TriageWorld>): void {
  describe(`IssueTriage contract: ${name}`, () => {
    let w: TriageWorld;
    beforeAll(async () => {
      w = await make();
    });
    afterAll(() => w.cleanup());

    it("changes: sets what each step says, records its change, bookmarks for a person, returns the issues after", async () => {
      const a = await w.seed({ projectId: w.projectId, firstSeen: 1 });
      const b = await w.seed({ projectId: w.projectId, firstSeen: 2 });
      const after = await w.triage.change({ projectIds: [w.projectId], issueIds: [a, b] }, async (issue) =>
        issue.id === a
          ? { kind: "update", set: { status: "resolved", substatus: "resolved", resolved_at: 5 }, change: change(issue, "resolved") }
          : { kind: "bookmark", userId: w.memberId, on: true },
      );
      expect(after?.find((i) => i.id === a)).toMatchObject({ status: "resolved", resolved_at: 5 });
      expect(after?.find((i) => i.id === b)).toMatchObject({ status: "unresolved" });
      expect((await w.changes(a)).map((c) => c.kind)).toEqual(["resolved"]);
      expect(await w.changes(b)).toEqual([]);
      expect(await w.bookmarked(b, w.memberId)).toBe(true);
      await w.triage.change({ projectIds: [w.projectId], issueIds: [b] }, async () => ({
        kind: "bookmark",
        userId: w.memberId,
        on: false,
      }));
      expect(await w.bookmarked(b, w.memberId)).toBe(false);
    });

    it("changes: an issue outside the projects is not found, and a step that throws undoes the others", async () => {
      const a = await w.seed({ projectId: w.projectId, firstSeen: 1 });
      const b = await w.seed({ projectId: w.otherProjectId, firstSeen: 1 });
      let asked = 0;
      const step = async (issue: Issue) => {
        asked++;
        return { kind: "update" as const, set: { status: "ignored" as const }, change: change(issue, "ignored") };
      };
      expect(await w.triage.change({ projectIds: [w.projectId], issueIds: [a, b] }, step)).toBeNull();
      expect(await w.triage.change({ projectIds: [], issueIds: [a] }, step)).toBeNull();
      expect(asked).toBe(0);
      const refused = w.triage.change({ projectIds: [w.projectId, w.otherProjectId], issueIds: [a, b] }, async (issue) => {
        if (asked === 1) throw new Error("refused");
        return step(issue);
      });
      await expect(refused).rejects.toThrow("refused");
      expect(asked).toBe(1);
      for (const id of [a, b]) {
        expect((await w.issue(id)).status).toBe("unresolved");
        expect(await w.changes(id)).toEqual([]);
      }
    });

    it("changes: reads membership, the organization's teams and the project's releases", async () => {
      const a = await w.seed({ projectId: w.projectId, firstSeen: 1 });
      const seen: unknown[] = [];
      await w.triage.change({ projectIds: [w.projectId], issueIds: [a] }, async (issue, reads) => {
        seen.push(
          await reads.isMember(issue.project_id, w.memberId),
          await reads.isMember(issue.project_id, w.outsiderId),
          await reads.teamSlug(issue.project_id, w.teamId),
          await reads.teamSlug(issue.project_id, w.otherOrgTeamId),
          await reads.releaseOrder.versions(issue.project_id, 10),
        );
        return { kind: "update", set: {}, change: null };
      });
      expect(seen).toEqual([true, false, w.teamSlug, null, [...w.versions].reverse()]);
    });

    it("merges into the issue the plan names: counts, tags and hashes move there, the others are marked merged", async () => {
      const older = await w.seed({ projectId: w.projectId, firstSeen: 10, timesSeen: 2, tags: [["os", "linux"]], hashes: ["m1"] });
      const newer = await w.seed({
        projectId: w.projectId,
        firstSeen: 20,
        timesSeen: 3,
        tags: [
          ["os", "linux"],
          ["os", "mac"],
        ],
        hashes: ["m2"],
      });
      let given: { ids: number[]; slug: string } | null = null;
      // The newer one, unlike core's choice: the store merges where the plan says.
      const into = await w.triage.merge({ projectIds: [w.projectId], issueIds: [newer, older] }, (issues, slug) => {
        given = { ids: issues.map((i) => i.id), slug };
        return { into: issues[1] ?? issues[0], changes: issues.map((i) => change(i, "merged", { n: i.id })) };
      });
      expect(given).toEqual({ ids: [older, newer], slug: w.projectSlug });
      expect(into).toMatchObject({ id: newer, times_seen: 5, first_seen: 10 });
      expect(await w.tags(newer)).toEqual([
        ["os", "linux", 2],
        ["os", "mac", 1],
      ]);
      expect(await w.hashes(newer)).toEqual(["m1", "m2"]);
      expect(await w.issue(older)).toMatchObject({ merged_into_id: newer, status: "resolved", substatus: "merged" });
      expect((await w.changes(older)).map((c) => c.data)).toEqual([{ n: older }]);
      expect(
        await w.triage.merge({ projectIds: [w.projectId], issueIds: [older, -5] }, (issues) => ({ into: issues[0], changes: [] })),
      ).toBeNull();
    });

    it("deletes the selected issues with the ones merged into them, their counts, hashes and changes; leaves others alone", async () => {
      const doomed = await w.seed({ projectId: w.projectId, firstSeen: 30, tags: [["os", "linux"]], hashes: ["d1"] });
      const mergedIn = await w.seed({ projectId: w.projectId, firstSeen: 31, mergedInto: doomed });
      const elsewhere = await w.seed({ projectId: w.otherProjectId, firstSeen: 32, hashes: ["d2"] });
      await w.triage.change({ projectIds: [w.projectId], issueIds: [doomed] }, async (issue) => ({
        kind: "update",
        set: { status: "resolved" },
        change: change(issue, "resolved"),
      }));
      // A merged-in issue on its own, an unknown id and another project's issue are left out.
      expect(await w.triage.delete({ projectIds: [w.projectId], issueIds: [mergedIn, -5, elsewhere] })).toEqual([]);
      const deleted = await w.triage.delete({ projectIds: [w.projectId], issueIds: [doomed, -5, elsewhere] });
      expect(deleted.map((i) => [i.id, i.status])).toEqual([
        [doomed, "resolved"],
        [mergedIn, "resolved"],
      ]);
      for (const id of [doomed, mergedIn]) await expect(w.issue(id)).rejects.toThrow();
      expect([await w.tags(doomed), await w.hashes(doomed), await w.changes(doomed)]).toEqual([[], [], []]);
      expect(await w.hashes(elsewhere)).toEqual(["d2"]);
      expect(await w.triage.delete({ projectIds: [w.projectId], issueIds: [doomed] })).toEqual([]);
    });

    it("unmerges what a merge moved; says when an issue is missing, not merged or merged before hashes were recorded", async () => {
      const into = await w.seed({ projectId: w.projectId, firstSeen: 1, timesSeen: 1, hashes: ["u1"] });
      const other = await w.seed({ projectId: w.projectId, firstSeen: 2, timesSeen: 1, hashes: ["u2"] });
      await w.triage.merge({ projectIds: [w.projectId], issueIds: [into, other] }, (issues) => ({ into: issues[0], changes: [] }));
      const select = (issueId: number) => ({ projectIds: [w.projectId], issueId });
      const none = () => [];
      expect(await w.triage.unmerge({ projectIds: [w.otherProjectId], issueId: other }, none)).toEqual({ kind: "not found" });
      expect(await w.triage.unmerge(select(into), none)).toEqual({ kind: "not merged" });
      const outcome = await w.triage.unmerge(select(other), (u) => [
        change(u.issue, "unmerged", { slug: u.projectSlug, from: u.target.id }),
      ]);
      expect(outcome).toMatchObject({
        kind: "unmerged",
        issue: { id: other, merged_into_id: null, status: "unresolved" },
        target: { id: into },
      });
      expect(await w.hashes(other)).toEqual(["u2"]);
      expect((await w.changes(other)).map((c) => c.data)).toEqual([{ slug: w.projectSlug, from: into }]);
      const old = await w.seed({ projectId: w.projectId, firstSeen: 3, mergedInto: into });
      expect(await w.triage.unmerge(select(old), none)).toEqual({ kind: "not recorded" });
    });
  });
}
