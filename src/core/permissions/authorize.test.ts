import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERNAL_ORG_SLUG } from "../../../test/support/internal-org";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import type { User } from "../accounts/user";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { authorize } from "./authorize";
import { NOT_ALLOWED } from "./table";

describe.each(DIALECTS)("authorize on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let owner: User;
  let member: User;
  let outsider: User;
  let root: User;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
    [owner, member, outsider, root] = await Promise.all([
      createUser({ ctx, input: { email: "owner@example.com", password: "password-123" } }),
      createUser({ ctx, input: { email: "member@example.com", password: "password-123" } }),
      createUser({ ctx, input: { email: "outsider@example.com", password: "password-123" } }),
      createUser({ ctx, input: { email: "root@example.com", password: "password-123", superuser: true } }),
    ]);
    const acme = await createOrganization({ ctx, input: { slug: "acme", owner: "owner@example.com" } });
    await store.db
      .insertInto("memberships")
      .values({ organization_id: acme.id, user_id: member.id, role: "member", created_at: 0 })
      .execute();
  });
  afterAll(() => store.cleanup());

  it("gives a member what the table allows members and refuses the rest as forbidden", async () => {
    expect((await authorize(ctx, member, "issue:triage", "acme")).role).toBe("member");
    await expect(authorize(ctx, member, "key:rotate", "acme")).rejects.toMatchObject({ code: "forbidden", message: NOT_ALLOWED });
  });

  it("lets an owner rotate keys", async () => {
    expect((await authorize(ctx, owner, "key:rotate", "acme")).org.slug).toBe("acme");
  });

  it("reports another organization as missing, whatever the permission", async () => {
    for (const permission of ["org:read", "key:rotate"] as const) {
      await expect(authorize(ctx, outsider, permission, "acme")).rejects.toMatchObject({ code: "not_found" });
    }
  });

  it("lets a superuser act as owner, the internal organization included", async () => {
    expect((await authorize(ctx, root, "project:settings:write", "acme")).role).toBe("owner");
    expect((await authorize(ctx, root, "key:rotate", INTERNAL_ORG_SLUG)).org.is_internal).toBe(1);
  });
});
