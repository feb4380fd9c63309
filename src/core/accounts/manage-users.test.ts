import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Mailbox } from "../../../test/support/mailbox";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { User } from "./user";
import type { Ctx } from "../context";
import { createOrganization } from "../orgs/create-org";
import { createUser } from "./create-user";
import { login } from "./login";
import { adminResetLink, deleteUser, listUsers, setSuperuser } from "./manage-users";
import { userForResetToken } from "./password-reset";

const PASSWORD = "password-123";

describe.each(DIALECTS)("user management for superusers on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let n = 0;
  let root: User;
  let plain: User;

  const make = (name: string, superuser = false) =>
    createUser({ ctx, input: { email: `${name}${n}@example.com`, password: PASSWORD, superuser } });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store);
  });
  afterAll(() => store.cleanup());
  beforeEach(async () => {
    n++;
    root = await make("root", true);
    plain = await make("plain");
  });

  it("lists users with their organizations, creation and last activity", async () => {
    await createOrganization({ ctx, input: { slug: `org${n}`, name: `Org ${n}`, owner: plain.email } });
    await login({ ctx, input: { email: plain.email, password: PASSWORD, ip: "10.40.0.1", userAgent: "vitest" } });
    const users = await listUsers(ctx, root);
    // Last activity is the sign-in just made: the newest of the user's sessions.
    const signedIn = await store.db
      .selectFrom("sessions")
      .select((eb) => eb.fn.max<number>("created_at").as("at"))
      .where("user_id", "=", plain.id)
      .executeTakeFirstOrThrow();
    expect(users.find((u) => u.id === plain.id)).toEqual({
      id: plain.id,
      email: plain.email,
      name: "",
      superuser: false,
      organizations: [{ slug: `org${n}`, name: `Org ${n}`, role: "owner" }],
      createdAt: plain.created_at,
      lastActiveAt: Number(signedIn.at),
    });
    expect(users.find((u) => u.id === root.id)).toMatchObject({ superuser: true, organizations: [], lastActiveAt: null });
  });

  it("refuses every operation to a user without the superuser flag, as not found", async () => {
    await expect(listUsers(ctx, plain)).rejects.toMatchObject({ code: "not_found" });
    await expect(setSuperuser(ctx, plain, { userId: plain.id, superuser: true })).rejects.toMatchObject({ code: "not_found" });
    await expect(deleteUser(ctx, plain, root.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(adminResetLink(ctx, plain, root.id)).rejects.toMatchObject({ code: "not_found" });
    expect(
      (await store.db.selectFrom("users").select("is_superuser").where("id", "=", plain.id).executeTakeFirstOrThrow()).is_superuser,
    ).toBe(0);
  });

  it("makes and unmakes a superuser", async () => {
    expect((await setSuperuser(ctx, root, { userId: plain.id, superuser: true })).is_superuser).toBe(1);
    expect((await setSuperuser(ctx, root, { userId: plain.id, superuser: false })).is_superuser).toBe(0);
  });

  it("lets no superuser remove their own flag, nor the last superuser's", async () => {
    await expect(setSuperuser(ctx, root, { userId: root.id, superuser: false })).rejects.toMatchObject({ code: "conflict" });
    // Only one superuser left in the whole server: another superuser cannot be made to remove it either.
    await store.db.updateTable("users").set({ is_superuser: 0 }).where("id", "!=", root.id).execute();
    const other = { ...plain, is_superuser: 1 }; // a stale view that still says superuser
    await expect(setSuperuser(ctx, other, { userId: root.id, superuser: false })).rejects.toMatchObject({
      code: "conflict",
      message: /last superuser/,
    });
    await store.db.updateTable("users").set({ is_superuser: 1 }).where("id", "=", root.id).execute();
  });

  it("leaves a superuser when two take each other's flag at the same moment", async () => {
    const [a, b] = await Promise.all(
      ["race-a", "race-b"].map((who) =>
        createUser({ ctx, input: { email: `${who}${n}@example.com`, password: PASSWORD, superuser: true } }),
      ),
    );
    // Only these two are superusers now; each removes the other's flag at once.
    await store.db.updateTable("users").set({ is_superuser: 0 }).where("id", "not in", [a!.id, b!.id]).execute();
    const results = await Promise.allSettled([
      setSuperuser(ctx, a!, { userId: b!.id, superuser: false }),
      setSuperuser(ctx, b!, { userId: a!.id, superuser: false }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const left = await store.db.selectFrom("users").select("id").where("is_superuser", "=", 1).execute();
    expect(left).toHaveLength(1);
    await store.db.updateTable("users").set({ is_superuser: 1 }).where("id", "=", root.id).execute();
  });

  it("deletes a user with their sessions and memberships", async () => {
    await createOrganization({ ctx, input: { slug: `shared${n}`, owner: root.email } });
    const org = await store.db.selectFrom("organizations").select("id").where("slug", "=", `shared${n}`).executeTakeFirstOrThrow();
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: plain.id, role: "member", created_at: 0 })
      .execute();
    await login({ ctx, input: { email: plain.email, password: PASSWORD, ip: "10.40.0.2", userAgent: "vitest" } });
    await deleteUser(ctx, root, plain.id);
    expect(await store.db.selectFrom("users").select("id").where("id", "=", plain.id).executeTakeFirst()).toBeUndefined();
    expect(await store.db.selectFrom("memberships").select("user_id").where("user_id", "=", plain.id).execute()).toEqual([]);
    expect(await store.db.selectFrom("sessions").select("id").where("user_id", "=", plain.id).execute()).toEqual([]);
  });

  it("refuses to delete oneself and the last owner of an organization, naming it", async () => {
    await expect(deleteUser(ctx, root, root.id)).rejects.toMatchObject({ code: "conflict" });
    await createOrganization({ ctx, input: { slug: `solo${n}`, owner: plain.email } });
    await expect(deleteUser(ctx, root, plain.id)).rejects.toMatchObject({
      code: "conflict",
      message: `${plain.email} is the last owner of solo${n}; make someone else an owner there first.`,
    });
    const org = await store.db.selectFrom("organizations").select("id").where("slug", "=", `solo${n}`).executeTakeFirstOrThrow();
    await store.db.insertInto("memberships").values({ organization_id: org.id, user_id: root.id, role: "owner", created_at: 0 }).execute();
    await deleteUser(ctx, root, plain.id);
  });

  it("hands back a reset link without email, and mails it with email", async () => {
    const shown = await adminResetLink(ctx, root, plain.id);
    if (shown.sent) throw new Error("expected a link to show");
    const token = shown.link.replace("http://telltale.test:8000/reset-password/", "");
    expect(await userForResetToken(ctx, token)).toMatchObject({ email: plain.email });
    const mailbox = new Mailbox();
    expect(await adminResetLink({ ...ctx, mailer: mailbox }, root, plain.id)).toEqual({ sent: true });
    expect(await userForResetToken(ctx, mailbox.resetToken(plain.email))).toMatchObject({ email: plain.email });
  });
});
