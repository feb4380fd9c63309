import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { seedIssues } from "../../../test/support/issue-seeds";
import { createProject } from "./create-project";
import { firstIssue } from "./first-issue";

describe.each(DIALECTS)("firstIssue on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "acme" } });
  });
  afterAll(() => store.cleanup());

  it("is null until the project has an issue, then the oldest one of that project", async () => {
    const { project } = await createProject({ ctx, input: { org: "acme", slug: "web" } });
    const { project: other } = await createProject({ ctx, input: { org: "acme", slug: "other" } });
    expect(await firstIssue(ctx, project.id)).toBeNull();
    await seedIssues(store.db, other.id, [{ title: "elsewhere", first_seen: 1 }]);
    const [, first] = await seedIssues(store.db, project.id, [
      { title: "second", first_seen: 20 },
      { title: "first", first_seen: 10 },
    ]);
    expect(await firstIssue(ctx, project.id)).toEqual({ id: first, title: "first" });
  });
});
