import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../core/context";
import { createOrganization } from "../core/orgs/create-org";
import { createProject } from "../core/projects/create-project";
import { FirstSeenCache, releaseKey } from "../core/ports/release-order";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../test/support/stores";
import { KyselyReleaseOrder } from "./release-order";

describe.each(DIALECTS)("release first-seen times on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let shop = 0;
  let other = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "one" } });
    await createOrganization({ ctx, input: { slug: "two" } });
    shop = (await createProject({ ctx, input: { org: "one", slug: "shop" } })).project.id;
    other = (await createProject({ ctx, input: { org: "two", slug: "shop" } })).project.id;
    await ctx.releases.noteSeen(shop, "a1b2c3d", 1_000);
    await ctx.releases.noteSeen(shop, "e4f5a6b", 1_000);
    await ctx.releases.noteSeen(other, "a1b2c3d", 5_000);
  });
  afterAll(() => store.cleanup());

  it("answers each known release's creation time in the project's organization, ordered by id within a millisecond", async () => {
    const order = new KyselyReleaseOrder(store.db);
    const times = await order.firstSeen([
      { projectId: shop, version: "a1b2c3d" },
      { projectId: shop, version: "e4f5a6b" },
      { projectId: other, version: "a1b2c3d" },
      { projectId: other, version: "e4f5a6b" },
      { projectId: shop, version: "never-seen" },
    ]);
    const a = times.get(releaseKey(shop, "a1b2c3d"));
    const e = times.get(releaseKey(shop, "e4f5a6b"));
    expect(a?.at).toBe(1_000);
    expect(e?.at).toBe(1_000);
    expect(e!.id).toBeGreaterThan(a!.id);
    expect(times.get(releaseKey(other, "a1b2c3d"))?.at).toBe(5_000);
    // Another organization's release of that name is not this project's.
    expect(times.has(releaseKey(other, "e4f5a6b"))).toBe(false);
    expect(times.has(releaseKey(shop, "never-seen"))).toBe(false);
  });

  it("reads through the caller's transaction with the shared cache, and asks again for a release it did not know", async () => {
    const cache = new FirstSeenCache();
    const order = new KyselyReleaseOrder(store.db, cache);
    await order.firstSeen([{ projectId: shop, version: "c0ffee1" }]);
    expect(cache.size).toBe(0);
    await ctx.releases.noteSeen(shop, "c0ffee1", 9_000);
    // Inside a write transaction: on SQLite a read on the pool's one connection would wait forever.
    const inside = await store.db.transaction().execute((trx) => order.within(trx).firstSeen([{ projectId: shop, version: "c0ffee1" }]));
    expect(inside.get(releaseKey(shop, "c0ffee1"))?.at).toBe(9_000);
    expect(cache.size).toBe(1);
    expect(cache.get(releaseKey(shop, "c0ffee1"))?.at).toBe(9_000);
  });

  it("lists a project's release versions newest first", async () => {
    expect(await new KyselyReleaseOrder(store.db).versions(shop, 2)).toEqual(["c0ffee1", "e4f5a6b"]);
  });
});
