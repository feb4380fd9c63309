import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHOICES, type UserNotificationStore } from "../../src/core/ports/user-notifications";
import type { OrgWorld } from "../support/org-world";

export interface UserNotificationStoreFixture {
  store: UserNotificationStore;
  world: OrgWorld;
  /** Another member of `world.orgId`, on `world.teamId`. */
  teammateId: number;
  addIssue(projectId: number, assignee: { userId: number | null; teamId: number | null }): Promise<number>;
  /** An outbox change of the issue at `seq` by `userId`, of `kind` ("commented", "assigned"…). */
  addChange(issueId: number, seq: number, kind: string, userId: number | null, data: Record<string, unknown>): Promise<void>;
  addBookmark(issueId: number, userId: number): Promise<void>;
  cleanup(): Promise<void>;
}

/** What every UserNotificationStore (src/core/ports/user-notifications.ts) does. */
export function userNotificationStoreContract(name: string, make: () => Promise<UserNotificationStoreFixture>): void {
  describe(name, () => {
    let f: UserNotificationStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    it("keeps a person's choices and project overrides, and says who opted out where", async () => {
      const { memberId, outsiderId, projectId, otherProjectId } = f.world;
      const mine = f.teammateId;
      expect(await f.store.preferences(mine)).toEqual({ choices: DEFAULT_CHOICES, projects: [] });
      await f.store.setChoices(mine, { ...DEFAULT_CHOICES, issueAlerts: false, comments: false }, 1_000);
      await f.store.setChoices(mine, { ...DEFAULT_CHOICES, issueAlerts: false, resolutions: false }, 2_000);
      await f.store.setProjectAlerts(mine, otherProjectId, true, 2_000);
      await f.store.setProjectAlerts(mine, projectId, false, 2_000);
      await f.store.setProjectAlerts(mine, projectId, true, 3_000);
      await f.store.setProjectAlerts(memberId, projectId, false, 3_000);
      expect(await f.store.preferences(mine)).toEqual({
        choices: { issueAlerts: false, assigned: true, comments: true, resolutions: false },
        projects: [
          { projectId: Math.min(projectId, otherProjectId), issueAlerts: true },
          { projectId: Math.max(projectId, otherProjectId), issueAlerts: true },
        ],
      });
      const everyone = [mine, memberId, outsiderId, mine];
      expect([...(await f.store.optedOut(everyone, "resolutions", projectId))]).toEqual([mine]);
      expect([...(await f.store.optedOut(everyone, "issueAlerts", projectId))]).toEqual([memberId]);
      expect([...(await f.store.optedOut(everyone, "issueAlerts", f.world.otherOrgProjectId))]).toEqual([mine]);
      await f.store.setProjectAlerts(mine, projectId, null, 4_000);
      expect([...(await f.store.optedOut(everyone, "issueAlerts", projectId))].sort()).toEqual([mine, memberId].sort());
      expect(await f.store.optedOut([], "comments", projectId)).toEqual(new Set());
    });

    it("names an issue's participants once each, members of its organization only", async () => {
      const { memberId, outsiderId, projectId, teamId, otherOrgTeamId } = f.world;
      const mate = f.teammateId;
      const p = (userId: number, reason: string) => ({ userId, email: expect.stringContaining("@example.com"), reason });
      const issue = await f.addIssue(projectId, { userId: null, teamId });
      await f.addChange(issue, 10, "commented", memberId, { text: "hi" });
      await f.addChange(issue, 11, "commented", outsiderId, { text: "hi" });
      await f.addChange(issue, 12, "commented", mate, { text: "later" });
      await f.addBookmark(issue, memberId);
      await f.addBookmark(issue, outsiderId);
      expect(await f.store.participants(issue, 12)).toEqual([p(mate, "team"), p(memberId, "commenter")]);
      const bookmarked = await f.addIssue(projectId, { userId: null, teamId: null });
      await f.addBookmark(bookmarked, memberId);
      expect(await f.store.participants(bookmarked, 100)).toEqual([p(memberId, "bookmark")]);
      expect(await f.store.participants(bookmarked + issue + 1_000, 100)).toEqual([]);

      expect(await f.store.assignees(issue, { userId: memberId, teamId: null })).toEqual([p(memberId, "assignee")]);
      expect(await f.store.assignees(issue, { userId: outsiderId, teamId: null })).toEqual([]);
      expect(await f.store.assignees(issue, { userId: null, teamId: otherOrgTeamId })).toEqual([]);
      expect(await f.store.assignees(issue, { userId: null, teamId: null })).toEqual([]);
    });

    it("reads a change with its author", async () => {
      const issue = await f.addIssue(f.world.projectId, { userId: null, teamId: null });
      await f.addChange(issue, 20, "assigned", f.world.memberId, { assignee: "x" });
      await f.addChange(issue, 21, "resolved", null, {});
      expect(await f.store.change(20)).toEqual({
        data: { assignee: "x" },
        actorName: expect.any(String),
        actorEmail: expect.stringContaining("member@"),
      });
      expect(await f.store.change(21)).toEqual({ data: {}, actorName: null, actorEmail: null });
      expect(await f.store.change(22)).toBeNull();
    });
  });
}
