import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { INTERNAL_ORG_SLUG } from "../../../test/support/internal-org";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createUser } from "./create-user";
import { setupFirstAdmin } from "./setup-first-admin";

describe.each(DIALECTS)("setupFirstAdmin on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;

  // Each test needs a database without users.
  beforeEach(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
  });
  afterEach(() => store.cleanup());

  it("creates a superuser, their organization and an owner membership", async () => {
    const user = await setupFirstAdmin({
      ctx,
      input: { email: "Admin@Example.com", password: "first admin pw", orgSlug: "Acme", orgName: "Acme Inc." },
    });
    expect(user).toMatchObject({ email: "admin@example.com", is_superuser: 1 });
    const org = await store.db.selectFrom("organizations").selectAll().where("slug", "=", "acme").executeTakeFirstOrThrow();
    expect(org).toMatchObject({ name: "Acme Inc.", is_internal: 0 });
    const memberships = await store.db.selectFrom("memberships").select(["organization_id", "user_id", "role"]).execute();
    expect(memberships).toEqual([{ organization_id: org.id, user_id: user.id, role: "owner" }]);
  });

  it("names the organization after its slug when no name is given", async () => {
    await setupFirstAdmin({ ctx, input: { email: "admin@example.com", password: "first admin pw", orgSlug: "acme" } });
    expect(await store.db.selectFrom("organizations").select("name").where("slug", "=", "acme").executeTakeFirstOrThrow()).toEqual({
      name: "acme",
    });
  });

  it("is refused once a user exists", async () => {
    await createUser({ ctx, input: { email: "someone@example.com", password: "existing user" } });
    await expect(
      setupFirstAdmin({ ctx, input: { email: "admin@example.com", password: "first admin pw", orgSlug: "acme" } }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await ctx.accounts.countUsers()).toBe(1);
    expect(await store.db.selectFrom("organizations").select("id").where("slug", "=", "acme").executeTakeFirst()).toBeUndefined();
  });

  it("can run only once", async () => {
    await setupFirstAdmin({ ctx, input: { email: "admin@example.com", password: "first admin pw", orgSlug: "acme" } });
    await expect(
      setupFirstAdmin({ ctx, input: { email: "other@example.com", password: "second admin", orgSlug: "other" } }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await ctx.accounts.countUsers()).toBe(1);
  });

  it("creates no user when the organization cannot be created", async () => {
    await expect(
      setupFirstAdmin({ ctx, input: { email: "admin@example.com", password: "first admin pw", orgSlug: INTERNAL_ORG_SLUG } }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await ctx.accounts.countUsers()).toBe(0);
  });

  it("refuses an invalid organization slug before creating anything", async () => {
    await expect(
      setupFirstAdmin({ ctx, input: { email: "admin@example.com", password: "first admin pw", orgSlug: "no spaces" } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/^orgSlug: /),
    });
    expect(await ctx.accounts.countUsers()).toBe(0);
  });
});
