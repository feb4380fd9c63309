import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../../core/context";
import { runInboundFilters } from "../../core/filter/index";
import { createOrganization } from "../../core/orgs/create-org";
import { createProject } from "../../core/projects/create-project";
import { projectOptions, updateFilters } from "../../core/projects/options";
import { INTERNAL_ORG_SLUG, INTERNAL_PROJECT_SLUG } from "./0002_internal_project";
import { m0010 } from "./0010_localhost_filter_default";

/** A browser error from a page served on localhost: what the localhost filter drops. */
const FROM_LOCALHOST = {
  platform: "javascript",
  request: { url: "http://localhost:3000/checkout" },
  exception: { values: [{ type: "TypeError", value: "x is undefined" }] },
};

describe.each(DIALECTS)("migration 0010 (localhost filter off by default) on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  const ids: Record<string, number> = {};
  const filters = async (name: string) => (await projectOptions(ctx, ids[name]!)).filters;
  const stored = async (name: string) =>
    (await store.db.selectFrom("project_options").select("filters").where("project_id", "=", ids[name]!).executeTakeFirst())?.filters;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "before" } });
    // Projects as they stood before the change: no options row, other switches stored, or
    // their own localhost switch. Rewinding the migration (running its step again on these)
    // stands in for upgrading a database that has them.
    for (const slug of ["plain", "tuned", "own-choice", "garbled"])
      ids[slug] = (await createProject({ ctx, input: { org: "before", slug } })).project.id;
    await updateFilters({ ctx, input: { projectId: ids.tuned!, changes: { scriptError: false, releases: ["*-beta"] } } });
    await updateFilters({ ctx, input: { projectId: ids["own-choice"]!, changes: { localhost: false } } });
    await store.db.insertInto("project_options").values({ project_id: ids.garbled!, filters: "not json", scrubbing: "{}" }).execute();
    const internal = await store.db
      .selectFrom("projects")
      .innerJoin("organizations", "organizations.id", "projects.organization_id")
      .select("projects.id")
      .where("organizations.slug", "=", INTERNAL_ORG_SLUG)
      .where("projects.slug", "=", INTERNAL_PROJECT_SLUG)
      .executeTakeFirstOrThrow();
    ids.internal = internal.id;
    await m0010.up(store.db, dialect);
    ids.created = (await createProject({ ctx, input: { org: "before", slug: "created-after" } })).project.id;
  });
  afterAll(() => store.cleanup());

  it("keeps an existing project filtering localhost, as the old default did", async () => {
    expect(await stored("plain")).toBe('{"localhost":true}');
    expect((await filters("plain")).localhost).toBe(true);
    expect(runInboundFilters(FROM_LOCALHOST, await filters("plain"))).toBe("localhost");
  });

  it("adds the switch beside a project's other stored filters", async () => {
    expect(JSON.parse((await stored("tuned"))!)).toEqual({ scriptError: false, releases: ["*-beta"], localhost: true });
    expect(await filters("tuned")).toMatchObject({ scriptError: false, releases: ["*-beta"], localhost: true });
  });

  it("leaves a project's own localhost switch alone, the internal project's included", async () => {
    expect((await filters("own-choice")).localhost).toBe(false);
    expect((await filters("internal")).localhost).toBe(false);
  });

  it("writes the old default over stored filters that were unreadable (they counted as all defaults)", async () => {
    expect(await stored("garbled")).toBe('{"localhost":true}');
  });

  it("lets a project created afterwards keep events from localhost", async () => {
    expect(await stored("created")).toBeUndefined();
    expect((await filters("created")).localhost).toBe(false);
    expect(runInboundFilters(FROM_LOCALHOST, await filters("created"))).toBeNull();
  });

  it("still switches the filter both ways from project settings", async () => {
    await updateFilters({ ctx, input: { projectId: ids.plain!, changes: { localhost: false } } });
    expect(runInboundFilters(FROM_LOCALHOST, await filters("plain"))).toBeNull();
    await updateFilters({ ctx, input: { projectId: ids.created!, changes: { localhost: true } } });
    expect(runInboundFilters(FROM_LOCALHOST, await filters("created"))).toBe("localhost");
  });

  it("changes nothing when run again", async () => {
    const before = await store.db.selectFrom("project_options").selectAll().orderBy("project_id").execute();
    await m0010.up(store.db, dialect);
    expect(await store.db.selectFrom("project_options").selectAll().orderBy("project_id").execute()).toEqual(before);
  });
});
