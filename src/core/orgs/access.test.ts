import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERNAL_ORG_SLUG } from "../../../test/support/internal-org";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import type { User } from "../accounts/user";
import type { Ctx } from "../context";
import { listOrganizations, organizationFor } from "./access";
import { createOrganization } from "./create-org";
import type { Organization } from "./organization";

describe.each(DIALECTS)("organization access on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let alice: User;
  let bob: User;
  let root: User;
  let alpha: Organization;
  let beta: Organization;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    [alice, bob, root] = await Promise.all([
      createUser({ ctx, input: { email: "alice@example.com", password: "alice password" } }),
      createUser({ ctx, input: { email: "bob@example.com", password: "bob password" } }),
      createUser({ ctx, input: { email: "root@example.com", password: "root password", superuser: true } }),
    ]);
    alpha = await createOrganization({ ctx, input: { slug: "alpha", owner: "alice@example.com" } });
    beta = await createOrganization({ ctx, input: { slug: "beta", owner: "bob@example.com" } });
    await createOrganization({ ctx, input: { slug: "zulu" } });
    await store.db
      .insertInto("memberships")
      .values({ organization_id: beta.id, user_id: alice.id, role: "member", created_at: 0 })
      .execute();
    await store.db
      .insertInto("memberships")
      .values({ organization_id: alpha.id, user_id: root.id, role: "admin", created_at: 0 })
      .execute();
  });
  afterAll(() => store.cleanup());

  const slugsAndRoles = async (user: User) => (await listOrganizations(ctx, user)).map((a) => [a.org.slug, a.role]);

  describe("listOrganizations", () => {
    it("lists only a member's organizations, with their role in each", async () => {
      expect(await slugsAndRoles(alice)).toEqual([
        ["alpha", "owner"],
        ["beta", "member"],
      ]);
      expect(await slugsAndRoles(bob)).toEqual([["beta", "owner"]]);
    });

    it("lists every organization for a superuser, the internal one after all others, as owner where not a member", async () => {
      expect(await slugsAndRoles(root)).toEqual([
        ["alpha", "admin"],
        ["beta", "owner"],
        ["zulu", "owner"],
        [INTERNAL_ORG_SLUG, "owner"],
      ]);
    });
  });

  describe("organizationFor", () => {
    it("gives a member the organization with their role", async () => {
      const access = await organizationFor(ctx, alice, "beta");
      expect(access.org.id).toBe(beta.id);
      expect(access.role).toBe("member");
    });

    it("hides another organization as not found, exactly like a missing one", async () => {
      const hidden = organizationFor(ctx, bob, "alpha");
      await expect(hidden).rejects.toMatchObject({ code: "not_found", message: "organization 'alpha' does not exist" });
      await expect(organizationFor(ctx, bob, "nonexistent")).rejects.toMatchObject({
        code: "not_found",
        message: "organization 'nonexistent' does not exist",
      });
    });

    it("gives a superuser any organization, as owner where not a member", async () => {
      expect((await organizationFor(ctx, root, "zulu")).role).toBe("owner");
      expect((await organizationFor(ctx, root, "alpha")).role).toBe("admin");
      expect((await organizationFor(ctx, root, INTERNAL_ORG_SLUG)).org.is_internal).toBe(1);
    });
  });
});
