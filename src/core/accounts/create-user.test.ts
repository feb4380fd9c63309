import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createUser } from "./create-user";
import { verifyPassword } from "./password";

describe.each(DIALECTS)("createUser on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    ctx = testCtx(store, { now: () => 1_700_000_000_000 });
  });
  afterAll(() => store.cleanup());

  it("stores the email trimmed and lowercased, and only a hash of the password", async () => {
    const user = await createUser({ ctx, input: { email: "  Ada@Example.COM ", password: "analytical engine", name: " Ada " } });
    expect(user).toMatchObject({ email: "ada@example.com", name: "Ada", is_superuser: 0, created_at: 1_700_000_000_000 });
    expect(typeof user.id).toBe("number");
    expect(user).not.toHaveProperty("password_hash");
    const stored = await ctx.accounts.credentials("ada@example.com");
    expect(stored?.user).toEqual(user);
    expect(stored?.passwordHash).not.toContain("analytical engine");
    expect(await verifyPassword("analytical engine", stored?.passwordHash ?? "")).toBe(true);
  });

  it("marks a superuser", async () => {
    const user = await createUser({ ctx, input: { email: "root@example.com", password: "superuser password", superuser: true } });
    expect(user.is_superuser).toBe(1);
  });

  it("refuses a second user with the same email, whatever its case, as a conflict", async () => {
    await createUser({ ctx, input: { email: "grace@example.com", password: "first password" } });
    const before = await ctx.accounts.countUsers();
    await expect(createUser({ ctx, input: { email: "GRACE@example.com", password: "second password" } })).rejects.toMatchObject({
      code: "conflict",
      message: "a user with email 'grace@example.com' already exists",
    });
    expect(await ctx.accounts.countUsers()).toBe(before);
  });

  it.each([
    ["an invalid email", { email: "not-an-email", password: "long enough" }, /^email: /],
    ["a short password", { email: "short@example.com", password: "1234567" }, /^password: use at least 8 characters/],
  ])("refuses %s as invalid input naming the field", async (_what, input, message) => {
    await expect(createUser({ ctx, input })).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(message) });
  });
});
