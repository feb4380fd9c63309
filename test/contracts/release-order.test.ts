import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ctx } from "../../src/core/context";
import { createOrganization } from "../../src/core/orgs/create-org";
import { createProject } from "../../src/core/projects/create-project";
import { FirstSeenCache, releaseKey } from "../../src/core/ports/release-order";
import { KyselyReleaseOrder } from "../../src/db/release-order";
import { MemoryReleaseOrder } from "../support/memory-release-order";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";
import { releaseOrderContract } from "./release-order";

releaseOrderContract("in memory", async () => {
  const order = new MemoryReleaseOrder();
  return { order, projects: [1, 2], seen: async (projectId, version, at) => order.add(projectId, version, at), cleanup: async () => {} };
});

describe.each(DIALECTS)("KyselyReleaseOrder on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  const projects: number[] = [];

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    await createOrganization({ ctx, input: { slug: "one" } });
    await createOrganization({ ctx, input: { slug: "two" } });
    for (const [org, slug] of [
      ["one", "shop"],
      ["two", "shop"],
      ["one", "cached"],
    ] as const)
      projects.push((await createProject({ ctx, input: { org, slug } })).project.id);
  });
  afterAll(() => store.cleanup());

  releaseOrderContract("the database", async () => ({
    order: new KyselyReleaseOrder(store.db),
    projects: [projects[0]!, projects[1]!],
    seen: (projectId, version, at) => ctx.releases.noteSeen(projectId, version, at),
    cleanup: async () => {},
  }));

  it("reads through the caller's transaction with the shared cache, which keeps only releases it found", async () => {
    const project = projects[2]!;
    const cache = new FirstSeenCache();
    const order = new KyselyReleaseOrder(store.db, cache);
    await order.firstSeen([{ projectId: project, version: "c0ffee1" }]);
    expect(cache.size).toBe(0);
    await ctx.releases.noteSeen(project, "c0ffee1", 9_000);
    // Inside a write transaction: on SQLite a read on the pool's one connection would wait forever.
    const inside = await store.db.transaction().execute((trx) => order.within(trx).firstSeen([{ projectId: project, version: "c0ffee1" }]));
    expect(inside.get(releaseKey(project, "c0ffee1"))?.at).toBe(9_000);
    expect(cache.size).toBe(1);
    expect(cache.get(releaseKey(project, "c0ffee1"))?.at).toBe(9_000);
  });
});
