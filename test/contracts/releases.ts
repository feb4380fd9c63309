import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReleaseStore } from "../../src/core/ports/releases";
import type { OrgWorld } from "../support/org-world";

/** An issue of a project: the release it first came in, and how often each release tag saw it (ms). */
export interface IssueSeed {
  title: string;
  firstRelease: string | null;
  timesSeen: number;
  mergedInto?: number;
  tags: readonly { key: string; value: string; timesSeen: number; firstSeen: number; lastSeen: number }[];
}

export interface ReleaseStoreFixture {
  store: ReleaseStore;
  world: OrgWorld;
  addIssue(projectId: number, issue: IssueSeed): Promise<number>;
  /** A stored event of the project at `timestamp` (ms). */
  addEvent(projectId: number, release: string, environment: string, timestamp: number): Promise<void>;
  addSessions(projectId: number, release: string): Promise<void>;
  /** The release's head commits as stored, by repository. */
  headCommits(releaseId: number): Promise<{ repositoryId: number; key: string; previousKey: string | null }[]>;
  cleanup(): Promise<void>;
}

const noDates = { ref: null, url: null, dateStarted: null, dateReleased: null };

/** What every ReleaseStore (src/core/ports/releases.ts) does. */
export function releaseStoreContract(name: string, make: () => Promise<ReleaseStoreFixture>): void {
  describe(name, () => {
    let f: ReleaseStoreFixture;
    beforeAll(async () => {
      f = await make();
    });
    afterAll(() => f.cleanup());

    const slugs = (r: { projects: { slug: string }[] } | null | undefined) => r?.projects.map((p) => p.slug);

    it("creates a release once, adding projects to it, and lists an organization's newest first", async () => {
      const { orgId, otherOrgId, projectId, otherProjectId, otherOrgProjectId } = f.world;
      const input = { ref: "main", url: "https://ci.example.com/1", dateStarted: 500, dateReleased: null };
      const first = await f.store.upsertRelease(orgId, { version: "1.0", ...input }, [projectId], 1_000);
      expect(first).toEqual({
        created: true,
        release: {
          id: expect.any(Number),
          organizationId: orgId,
          version: "1.0",
          ref: "main",
          url: "https://ci.example.com/1",
          status: "open",
          dateCreated: 1_000,
          dateStarted: 500,
          dateReleased: null,
          projects: [{ id: projectId, slug: f.world.projectSlug, name: f.world.projectSlug, platform: expect.any(String) }],
          commitCount: 0,
          lastCommit: null,
          deployCount: 0,
          lastDeploy: null,
        },
      });
      const again = await f.store.upsertRelease(orgId, { version: "1.0", ...noDates }, [otherProjectId, projectId], 2_000);
      expect(again.created).toBe(false);
      expect(again.release).toMatchObject({ id: first.release.id, ref: "main", dateCreated: 1_000 });
      expect(again.release.projects.map((p) => p.id).sort((a, b) => a - b)).toEqual([projectId, otherProjectId].sort((a, b) => a - b));

      await f.store.upsertRelease(orgId, { version: "2.0", ...noDates }, [otherProjectId], 3_000);
      await f.store.upsertRelease(otherOrgId, { version: "1.0", ...noDates }, [otherOrgProjectId], 3_000);
      expect(await f.store.release(orgId, "3.0")).toBeNull();
      const versions = async (projectIds: readonly number[] | null, limit = 10) =>
        (await f.store.releases(orgId, { projectIds, limit })).map((r) => r.version);
      expect(await versions(null)).toEqual(["2.0", "1.0"]);
      expect(await versions(null, 1)).toEqual(["2.0"]);
      expect(await versions([projectId])).toEqual(["1.0"]);
      expect(await versions([])).toEqual([]);
    });

    it("notes a release an event names, in the project's organization", async () => {
      const { orgId, projectId } = f.world;
      await f.store.noteSeen(projectId, "seen-1", 4_000);
      await f.store.noteSeen(projectId, "seen-1", 5_000);
      expect(await f.store.release(orgId, "seen-1")).toMatchObject({ dateCreated: 4_000, projects: [{ id: projectId }] });
      await f.store.noteSeen(projectId + f.world.otherOrgProjectId + 1_000, "ghost", 4_000);
      expect(await f.store.release(orgId, "ghost")).toBeNull();
    });

    it("changes a release, and deletes it with its deploys and commits", async () => {
      const { orgId, projectId, otherProjectId } = f.world;
      const { release } = await f.store.upsertRelease(orgId, { version: "gone", ...noDates }, [projectId], 6_000);
      await f.store.updateRelease(release.id, {
        ref: "v2",
        url: null,
        dateReleased: 7_000,
        status: "archived",
        projectIds: [otherProjectId],
      });
      await f.store.updateRelease(release.id, {});
      expect(await f.store.release(orgId, "gone")).toMatchObject({ ref: "v2", url: null, dateReleased: 7_000, status: "archived" });
      expect(slugs(await f.store.release(orgId, "gone"))).toHaveLength(2);

      const deploy = { environment: "production", name: "d1", url: null, dateStarted: 7_000, dateFinished: 8_000 };
      const first = await f.store.addDeploy(release.id, deploy);
      expect(first).toEqual({ id: expect.any(Number), ...deploy });
      const second = await f.store.addDeploy(release.id, { ...deploy, environment: "staging", name: null, dateStarted: null });
      expect(await f.store.deploys(release.id)).toEqual([second, first]);
      expect(await f.store.release(orgId, "gone")).toMatchObject({ deployCount: 2, lastDeploy: second });

      await f.store.deleteRelease(release.id);
      expect(await f.store.release(orgId, "gone")).toBeNull();
      expect(await f.store.deploys(release.id)).toEqual([]);
    });

    it("registers repositories once per name, and keeps a release's commits and head commits", async () => {
      const { orgId, otherOrgId } = f.world;
      const repo = await f.store.insertRepository(
        orgId,
        { name: "acme/web", url: "https://git.example.com/web", provider: "github" },
        1_000,
      );
      expect(repo).toEqual({
        id: expect.any(Number),
        organizationId: orgId,
        name: "acme/web",
        url: "https://git.example.com/web",
        provider: "github",
        dateCreated: 1_000,
      });
      expect(await f.store.insertRepository(orgId, { name: "acme/web", url: null, provider: null }, 2_000)).toBeNull();
      const api = await f.store.insertRepository(orgId, { name: "acme/api", url: null, provider: null }, 2_000);
      expect(await f.store.insertRepository(otherOrgId, { name: "acme/web", url: null, provider: null }, 2_000)).not.toBeNull();
      expect((await f.store.repositories(orgId)).map((r) => r.name)).toEqual(["acme/api", "acme/web"]);
      if (!repo || !api) return;

      const one = (await f.store.upsertRelease(orgId, { version: "c1", ...noDates }, [], 10_000)).release;
      const none = (await f.store.upsertRelease(orgId, { version: "c2", ...noDates }, [], 11_000)).release;
      const two = (await f.store.upsertRelease(orgId, { version: "c3", ...noDates }, [], 12_000)).release;
      const commit = (key: string, repositoryId = repo.id) => ({
        repositoryId,
        key,
        message: `fix ${key}`,
        authorName: "Ada",
        authorEmail: "ada@example.com",
        timestamp: 900,
      });
      await f.store.setCommits(one.id, [commit("old")]);
      await f.store.setCommits(two.id, [commit("x")]);
      await f.store.setCommits(two.id, [commit("b"), commit("a"), commit("b"), commit("b", api.id)]);
      const listed = await f.store.commits(two.id);
      expect(listed.map((c) => [c.key, c.repositoryName])).toEqual([
        ["b", "acme/web"],
        ["a", "acme/web"],
        ["b", "acme/api"],
      ]);
      expect(listed[0]).toEqual({ ...commit("b"), repositoryName: "acme/web" });
      expect(await f.store.release(orgId, "c3")).toMatchObject({ commitCount: 3, lastCommit: listed[0] });

      expect((await f.store.previousWithCommits(orgId, two))?.version).toBe("c1");
      expect(await f.store.previousWithCommits(orgId, one)).toBeNull();
      expect((await f.store.previousWithCommits(orgId, none))?.version).toBe("c1");

      await f.store.setHeadCommits(two.id, [{ repositoryId: repo.id, key: "b", previousKey: null }]);
      await f.store.setHeadCommits(two.id, [
        { repositoryId: repo.id, key: "b", previousKey: "old" },
        { repositoryId: api.id, key: "b", previousKey: null },
      ]);
      expect(await f.headCommits(two.id)).toEqual(
        [
          { repositoryId: repo.id, key: "b", previousKey: "old" },
          { repositoryId: api.id, key: "b", previousKey: null },
        ].sort((x, y) => x.repositoryId - y.repositoryId),
      );
    });

    it("tells a release's events, first and last sightings and new issues, overall and per environment", async () => {
      const { projectId, otherProjectId } = f.world;
      const tag = (value: string, timesSeen: number, firstSeen: number, lastSeen: number) => ({
        key: "release",
        value,
        timesSeen,
        firstSeen,
        lastSeen,
      });
      const env = (value: string) => ({ key: "environment", value, timesSeen: 1, firstSeen: 0, lastSeen: 0 });
      const a = await f.addIssue(projectId, {
        title: "A",
        firstRelease: "s1",
        timesSeen: 5,
        tags: [tag("s1", 3, 1_000, 4_000), env("production")],
      });
      const b = await f.addIssue(projectId, {
        title: "B",
        firstRelease: "s1",
        timesSeen: 9,
        tags: [tag("s1", 2, 2_000, 6_000), tag("s2", 1, 7_000, 7_000)],
      });
      await f.addIssue(projectId, { title: "M", firstRelease: "s1", timesSeen: 99, mergedInto: a, tags: [] });
      await f.addIssue(otherProjectId, { title: "O", firstRelease: "s1", timesSeen: 1, tags: [tag("s1", 50, 0, 0)] });
      await f.addEvent(projectId, "s1", "production", 3_000);
      await f.addEvent(projectId, "s1", "production", 5_000);
      await f.addEvent(projectId, "s1", "staging", 8_000);

      const stats = await f.store.releaseStats(projectId, ["s1", "s2", "s9"]);
      expect(Object.fromEntries(stats)).toEqual({
        s1: { events: 5, firstSeen: 1_000, lastSeen: 6_000, newIssues: 2 },
        s2: { events: 1, firstSeen: 7_000, lastSeen: 7_000, newIssues: 0 },
        s9: { events: 0, firstSeen: null, lastSeen: null, newIssues: 0 },
      });
      expect((await f.store.releaseStats(projectId, ["s1"], "production")).get("s1")).toEqual({
        events: 2,
        firstSeen: 3_000,
        lastSeen: 5_000,
        newIssues: 1,
      });
      expect(await f.store.releaseStats(projectId, [])).toEqual(new Map());

      const issues = await f.store.newIssues(projectId, "s1", 10);
      expect(issues.map((i) => [i.id, i.title, i.timesSeen])).toEqual([
        [b, "B", 9],
        [a, "A", 5],
      ]);
      expect(issues[0]).toEqual({ id: b, shortNumber: expect.any(Number), title: "B", timesSeen: 9, lastSeen: expect.any(Number) });
      expect((await f.store.newIssues(projectId, "s1", 1)).map((i) => i.id)).toEqual([b]);
      expect((await f.store.newIssues(projectId, "s1", 10, "production")).map((i) => i.id)).toEqual([a]);
      expect(await f.store.newIssues(projectId, "s1", 10, "staging")).toEqual([]);
    });

    it("says whether issues, events or sessions of the projects still name a version", async () => {
      const { projectId, otherProjectId } = f.world;
      await f.addIssue(projectId, { title: "R", firstRelease: "r1", timesSeen: 1, tags: [] });
      await f.addIssue(projectId, {
        title: "T",
        firstRelease: null,
        timesSeen: 1,
        tags: [{ key: "release", value: "r2", timesSeen: 1, firstSeen: 0, lastSeen: 0 }],
      });
      await f.addSessions(otherProjectId, "r3");
      expect(await f.store.releaseReferences([projectId], "r1")).toEqual({ issues: true, health: false });
      expect(await f.store.releaseReferences([projectId], "r2")).toEqual({ issues: true, health: false });
      expect(await f.store.releaseReferences([projectId], "r3")).toEqual({ issues: false, health: false });
      expect(await f.store.releaseReferences([projectId, otherProjectId], "r3")).toEqual({ issues: false, health: true });
      expect(await f.store.releaseReferences([], "r1")).toEqual({ issues: false, health: false });
    });
  });
}
