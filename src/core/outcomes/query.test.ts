import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { createProject } from "../projects/create-project";
import { filteredErrors } from "./query";
import type { OutcomeCount } from "./record";

const HOUR = 3_600_000;
const NOW = 1_700_000_000_000;

describe.each(DIALECTS)("filteredErrors on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let web = 0;
  let api = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => NOW });
    await createOrganization({ ctx, input: { slug: "acme" } });
    web = (await createProject({ ctx, input: { org: "acme", slug: "web" } })).project.id;
    api = (await createProject({ ctx, input: { org: "acme", slug: "api" } })).project.id;
    const count = (
      projectId: number,
      category: string,
      outcome: OutcomeCount["outcome"],
      reason: string,
      quantity: number,
      at = NOW,
    ): OutcomeCount => ({
      projectId,
      category,
      outcome,
      reason,
      quantity,
      at,
    });
    await ctx.outcomes.record([
      count(web, "error", "filtered", "localhost", 2),
      count(web, "error", "filtered", "localhost", 1, NOW - 2 * HOUR),
      count(web, "error", "filtered", "web-crawlers", 5),
      count(web, "error", "filtered", "localhost", 7, NOW - 48 * HOUR),
      count(web, "transaction", "filtered", "localhost", 9),
      count(web, "error", "rate_limited", "key_quota", 4),
      count(api, "error", "filtered", "release-version", 1),
    ]);
  });
  afterAll(() => store.cleanup());

  it("sums filtered errors by project and reason since the given time, largest first", async () => {
    expect(await filteredErrors(ctx, [web, api], NOW - 24 * HOUR)).toEqual([
      { projectId: web, reason: "web-crawlers", quantity: 5 },
      { projectId: web, reason: "localhost", quantity: 3 },
      { projectId: api, reason: "release-version", quantity: 1 },
    ]);
  });

  it("leaves out other projects, other categories and other outcomes", async () => {
    expect(await filteredErrors(ctx, [api], 0)).toEqual([{ projectId: api, reason: "release-version", quantity: 1 }]);
    expect(await filteredErrors(ctx, [web], 0)).toEqual([
      { projectId: web, reason: "localhost", quantity: 10 },
      { projectId: web, reason: "web-crawlers", quantity: 5 },
    ]);
  });

  it("answers an empty list for no projects without asking the database", async () => {
    expect(await filteredErrors(ctx, [], 0)).toEqual([]);
  });
});
