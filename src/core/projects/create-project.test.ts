import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "./create-project";
import { listProjects, projectInOrg } from "./queries";

describe.each(DIALECTS)("projects on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => 1_700_000_000_000 });
    await createOrganization({ ctx, input: { slug: "acme" } });
    await createOrganization({ ctx, input: { slug: "other" } });
  });
  afterAll(() => store.cleanup());

  describe("createProject", () => {
    it("creates a project with an active default key", async () => {
      const { project, key } = await createProject({
        ctx,
        input: { org: "acme", slug: "Web", name: "Web shop", platform: "javascript-nextjs" },
      });
      expect(project).toMatchObject({ slug: "web", name: "Web shop", platform: "javascript-nextjs", created_at: 1_700_000_000_000 });
      expect(key).toMatchObject({ project_id: project.id, label: "Default", is_active: 1, rate_limit_count: null });
      expect(key.public_key).toMatch(/^[0-9a-f]{32}$/);
      expect(key.secret_key).toMatch(/^[0-9a-f]{32}$/);
      expect(key.secret_key).not.toBe(key.public_key);
    });

    it("defaults the name to the slug and the platform to browser JavaScript", async () => {
      const { project } = await createProject({ ctx, input: { org: "acme", slug: "plain" } });
      expect(project).toMatchObject({ name: "plain", platform: "javascript" });
    });

    it("refuses an unknown organization as not found", async () => {
      await expect(createProject({ ctx, input: { org: "nope", slug: "x" } })).rejects.toMatchObject({
        code: "not_found",
        message: "organization 'nope' does not exist",
      });
    });

    it("refuses a slug taken in the same organization but allows it in another", async () => {
      await createProject({ ctx, input: { org: "acme", slug: "api" } });
      await expect(createProject({ ctx, input: { org: "acme", slug: "api" } })).rejects.toMatchObject({ code: "conflict" });
      await expect(createProject({ ctx, input: { org: "other", slug: "api" } })).resolves.toMatchObject({ project: { slug: "api" } });
    });

    it("refuses an unknown platform as invalid input", async () => {
      await expect(createProject({ ctx, input: { org: "acme", slug: "cobol", platform: "cobol" } })).rejects.toMatchObject({
        code: "invalid_input",
        message: expect.stringMatching(/^platform: /),
      });
    });
  });

  describe("listProjects and projectInOrg", () => {
    it("lists an organization's projects by slug and only those", async () => {
      const acme = await store.db.selectFrom("organizations").selectAll().where("slug", "=", "acme").executeTakeFirstOrThrow();
      await createProject({ ctx, input: { org: "acme", slug: "aaa-first" } });
      await createProject({ ctx, input: { org: "other", slug: "elsewhere" } });
      const slugs = (await listProjects(ctx, { org: acme, projectIds: null })).map((p) => p.slug);
      expect(slugs).toEqual([...slugs].sort());
      expect(slugs).toContain("aaa-first");
      expect(slugs).not.toContain("elsewhere");
    });

    it("finds a project in its organization and not through another", async () => {
      const [acme, other] = await Promise.all(
        ["acme", "other"].map((slug) =>
          store.db.selectFrom("organizations").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow(),
        ),
      );
      await createProject({ ctx, input: { org: "acme", slug: "only-acme" } });
      expect((await projectInOrg(ctx, { org: acme!, projectIds: null }, "only-acme")).slug).toBe("only-acme");
      await expect(projectInOrg(ctx, { org: other!, projectIds: null }, "only-acme")).rejects.toMatchObject({
        code: "not_found",
        message: "project 'only-acme' does not exist in organization 'other'",
      });
    });
  });
});
