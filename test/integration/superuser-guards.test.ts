import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "../../src/core/accounts/create-user";
import type { Ctx } from "../../src/core/context";
import { NOT_ALLOWED } from "../../src/core/permissions/table";
import type { User } from "../../src/db/schema";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../support/stores";

// The guards run outside Next: the signed-in user and the runtime come from the test; Next's
// not-found signal becomes an error the test can see.
const session = vi.hoisted(() => ({ user: null as User | null, ctx: null as Ctx | null }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({
  notFound: () => {
    throw new Error("NEXT_NOT_FOUND");
  },
  redirect: (to: string) => {
    throw new Error(`NEXT_REDIRECT ${to}`);
  },
}));
vi.mock("../../app/lib/auth", () => ({
  requireUser: async () => {
    if (!session.user) throw new Error("no user signed in for this test");
    return session.user;
  },
  // The action wrapper records the client address in the audit log.
  clientIp: async () => "127.0.0.1",
}));
vi.mock("../../app/lib/app-runtime", () => ({ ctx: () => session.ctx }));

const { createUserAction, deleteUserAction, setSuperuserAction } = await import("../../app/actions/users");
const { loadSuperuser } = await import("../../app/lib/loaders");

function form(fields: Record<string, string | number>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
  return f;
}

describe.each(DIALECTS)("the superuser guards on %s", (dialect) => {
  let store: TestStore;
  let root: User;
  let member: User;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    session.ctx = testCtx(store);
    root = await createUser({ ctx: session.ctx, input: { email: "root@example.com", password: "password-123", superuser: true } });
    member = await createUser({ ctx: session.ctx, input: { email: "member@example.com", password: "password-123" } });
  });
  afterAll(() => store.cleanup());

  const userCount = async () => (await store.db.selectFrom("users").select("id").execute()).length;

  it("refuses a member every user-management action, as a refusal and without a change", async () => {
    session.user = member;
    const before = await userCount();
    expect(await createUserAction({}, form({ email: "new@example.com", password: "password-123" }))).toEqual({
      error: NOT_ALLOWED,
      code: "forbidden",
    });
    expect(await setSuperuserAction({}, form({ userId: member.id, superuser: "1" }))).toEqual({ error: NOT_ALLOWED, code: "forbidden" });
    expect(await deleteUserAction({}, form({ userId: root.id }))).toEqual({ error: NOT_ALLOWED, code: "forbidden" });
    expect(await userCount()).toBe(before);
    const flag = await store.db.selectFrom("users").select("is_superuser").where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(flag.is_superuser).toBe(0);
  });

  it("lets a superuser act", async () => {
    session.user = root;
    expect(await createUserAction({}, form({ email: "new@example.com", password: "password-123" }))).toEqual({
      notice: "Created new@example.com.",
    });
    expect(await setSuperuserAction({}, form({ userId: root.id, superuser: "0" }))).toMatchObject({ code: "conflict" });
  });

  it("renders the not-found page of /admin/users for a member and lets a superuser in", async () => {
    session.user = member;
    await expect(loadSuperuser("user:admin", "/admin/users")).rejects.toThrow("NEXT_NOT_FOUND");
    session.user = root;
    await expect(loadSuperuser("user:admin", "/admin/users")).resolves.toMatchObject({ id: root.id });
  });
});
