import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_RULE } from "../../src/core/alerts/rule-schema";
import { generateKeyPair } from "../../src/core/keys/generate";
import type { NewProjectRecord, ProjectStore } from "../../src/core/ports/projects";

/** A ProjectStore with what the suite needs around it: organizations, teams and issues, and a look at what `create` linked. */
export interface ProjectStoreSubject {
  store: ProjectStore;
  /** Makes an organization, with its default team unless told otherwise; returns its id. */
  organization(slug: string, options?: { defaultTeam: boolean }): Promise<number>;
  team(orgId: number, slug: string): Promise<number>;
  teamsOf(projectId: number): Promise<number[]>;
  defaultRuleNames(projectId: number): Promise<string[]>;
  issue(projectId: number, title: string, firstSeen: number): Promise<number>;
  cleanup(): Promise<void>;
}

const NOW = 1_700_000_000_000;
const record = (orgSlug: string, slug: string, extra: Partial<NewProjectRecord> = {}): NewProjectRecord => ({
  orgSlug,
  slug,
  name: slug,
  platform: "javascript",
  key: generateKeyPair(),
  rule: DEFAULT_RULE,
  now: NOW,
  ...extra,
});

export function projectStoreContract(name: string, make: () => Promise<ProjectStoreSubject>): void {
  describe(`ProjectStore: ${name}`, () => {
    let s: ProjectStoreSubject;
    let store: ProjectStore;
    beforeAll(async () => {
      s = await make();
      store = s.store;
    });
    afterAll(() => s.cleanup());

    const created = async (p: NewProjectRecord) => {
      const result = await store.create(p);
      if ("refused" in result) throw new Error(`refused: ${result.refused}`);
      return result;
    };

    it("creates a project with its Default key, its default alert rule and the team it names or the default one", async () => {
      const orgId = await s.organization("create");
      const team = await s.team(orgId, "backend");
      const { project, key } = await created(record("create", "web", { name: "Web shop", platform: "python" }));
      expect(project).toMatchObject({ organization_id: orgId, slug: "web", name: "Web shop", platform: "python", created_at: NOW });
      expect(project.grouping_previous_config).toBeNull();
      expect(key).toMatchObject({ project_id: project.id, label: "Default", is_active: 1, rate_limit_count: null, created_at: NOW });
      expect(await s.defaultRuleNames(project.id)).toEqual([DEFAULT_RULE.name]);
      expect(await s.teamsOf(project.id)).toHaveLength(1);
      expect(await s.teamsOf(project.id)).not.toContain(team);
      const named = await created(record("create", "api", { teamSlug: "backend" }));
      expect(await s.teamsOf(named.project.id)).toEqual([team]);
      await s.organization("no-team", { defaultTeam: false });
      const alone = await created(record("no-team", "web"));
      expect(await s.teamsOf(alone.project.id)).toEqual([]);
    });

    it("refuses an unknown organization or team and a taken slug, writing nothing", async () => {
      const orgId = await s.organization("refuse");
      await created(record("refuse", "taken"));
      expect(await store.create(record("nope", "x"))).toEqual({ refused: "no_organization" });
      expect(await store.create(record("refuse", "taken"))).toEqual({ refused: "slug_taken" });
      expect(await store.create(record("refuse", "other", { teamSlug: "nope" }))).toEqual({ refused: "no_team" });
      expect((await store.list(orgId)).map((p) => p.slug)).toEqual(["taken"]);
    });

    it("finds organizations and their projects by slug, and lists them by slug", async () => {
      const orgId = await s.organization("find");
      const otherId = await s.organization("find-other");
      for (const slug of ["b", "a", "c"]) await created(record("find", slug));
      await created(record("find-other", "z"));
      expect(await store.organizationId("find")).toBe(orgId);
      expect(await store.organizationId("nope")).toBeNull();
      expect((await store.list(orgId)).map((p) => p.slug)).toEqual(["a", "b", "c"]);
      expect(await store.bySlug(orgId, "b")).toMatchObject({ slug: "b", organization_id: orgId });
      expect(await store.bySlug(otherId, "b")).toBeNull();
    });

    it("reads and replaces a project's grouping; none for a missing project", async () => {
      await s.organization("grouping");
      const { project } = await created(record("grouping", "web"));
      const before = await store.grouping(project.id);
      expect(before).toEqual({ config: project.grouping_config, previous: null, transitionUntil: null });
      const upgraded = { config: "next", previous: project.grouping_config, transitionUntil: NOW + 1000 };
      await store.setGrouping(project.id, upgraded);
      expect(await store.grouping(project.id)).toEqual(upgraded);
      expect((await store.options(project.id)).grouping).toEqual(upgraded);
      expect(await store.grouping(project.id + 1000)).toBeNull();
    });

    it("keeps option documents apart: saving one leaves the other as it was", async () => {
      await s.organization("options");
      const { project } = await created(record("options", "web"));
      expect(await store.options(project.id)).toEqual({ grouping: expect.anything() });
      await store.saveOption(project.id, "filters", '{"localhost":true}');
      expect(await store.options(project.id)).toMatchObject({ filters: '{"localhost":true}', scrubbing: "{}" });
      await store.saveOption(project.id, "scrubbing", '{"safeFields":["id"]}');
      await store.saveOption(project.id, "filters", '{"localhost":false}');
      expect(await store.options(project.id)).toMatchObject({ filters: '{"localhost":false}', scrubbing: '{"safeFields":["id"]}' });
    });

    it("sets, replaces and removes quotas by category", async () => {
      await s.organization("quotas");
      const { project } = await created(record("quotas", "web"));
      const quota = (category: string, limit_count: number) => ({ project_id: project.id, category, limit_count, window_seconds: 60 });
      await store.setQuota(quota("error", 10));
      await store.setQuota(quota("*", 100));
      await store.setQuota(quota("error", 20));
      expect(await store.quotas(project.id)).toEqual([quota("*", 100), quota("error", 20)]);
      await store.removeQuota(project.id, "*");
      expect(await store.quotas(project.id)).toEqual([quota("error", 20)]);
    });

    it("finds the project's oldest issue by first seen, then id; none before the first", async () => {
      await s.organization("issues");
      const { project } = await created(record("issues", "web"));
      const { project: other } = await created(record("issues", "other"));
      expect(await store.firstIssue(project.id)).toBeNull();
      await s.issue(other.id, "elsewhere", 1);
      await s.issue(project.id, "second", 20);
      const first = await s.issue(project.id, "first", 10);
      await s.issue(project.id, "tied later", 10);
      expect(await store.firstIssue(project.id)).toEqual({ id: first, title: "first" });
    });
  });
}
