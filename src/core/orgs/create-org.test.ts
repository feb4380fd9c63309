import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import type { Ctx } from "../context";
import { createOrganization } from "./create-org";

describe.each(DIALECTS)("createOrganization on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => 1_700_000_000_000 });
  });
  afterAll(() => store.cleanup());

  const organization = (slug: string) => store.db.selectFrom("organizations").selectAll().where("slug", "=", slug).executeTakeFirst();

  it("creates an organization named after its lowercased slug, with no members", async () => {
    const org = await createOrganization({ ctx, input: { slug: "Acme" } });
    expect(org).toMatchObject({ slug: "acme", name: "acme", is_internal: 0, created_at: 1_700_000_000_000 });
    expect(await store.db.selectFrom("memberships").select("user_id").where("organization_id", "=", org.id).execute()).toEqual([]);
  });

  it("makes the named user its owner", async () => {
    const owner = await createUser({ ctx, input: { email: "owner@example.com", password: "owner password" } });
    const org = await createOrganization({ ctx, input: { slug: "owned", name: "Owned Ltd", owner: "Owner@Example.com" } });
    expect(org.name).toBe("Owned Ltd");
    expect(await store.db.selectFrom("memberships").select(["user_id", "role"]).where("organization_id", "=", org.id).execute()).toEqual([
      { user_id: owner.id, role: "owner" },
    ]);
  });

  it("refuses an unknown owner as not found and creates nothing", async () => {
    await expect(createOrganization({ ctx, input: { slug: "orphan", owner: "ghost@example.com" } })).rejects.toMatchObject({
      code: "not_found",
      message: "user 'ghost@example.com' does not exist",
    });
    expect(await organization("orphan")).toBeUndefined();
  });

  it("refuses a slug that is taken as a conflict", async () => {
    await createOrganization({ ctx, input: { slug: "taken" } });
    await expect(createOrganization({ ctx, input: { slug: "TAKEN" } })).rejects.toMatchObject({ code: "conflict" });
  });

  it.each(["", "has space", "-leading-dash", "x".repeat(51)])("refuses the slug %j as invalid input", async (slug) => {
    await expect(createOrganization({ ctx, input: { slug } })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/^slug: /),
    });
  });
});
