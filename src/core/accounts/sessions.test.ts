import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createUser } from "./create-user";
import { login } from "./login";
import { logout, userForSession } from "./sessions";

describe.each(DIALECTS)("sessions on %s", (dialect) => {
  let store: TestStore;
  let clock: number;
  let ctx: Ctx;
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(dialect);
    clock = Date.UTC(2025, 0, 1);
    ctx = testCtx(store, {
      now: () => clock,
      limits: { sessionDays: 2, loginMaxFailures: 3, loginAccountMaxFailures: 30, loginWindowSeconds: 900 },
    });
  });
  afterAll(() => store.cleanup());

  async function signedIn() {
    const email = `session${++n}@example.com`;
    await createUser({ ctx, input: { email, password: "session password" } });
    return login({ ctx, input: { email, password: "session password", ip: "127.0.0.1", userAgent: "vitest" } });
  }

  it("resolves a session token to its user until it expires", async () => {
    const { token, user, expiresAt } = await signedIn();
    expect(expiresAt).toBe(clock + 2 * 86_400_000);
    clock = expiresAt - 1;
    expect(await userForSession(ctx, token)).toEqual(user);
    clock = expiresAt;
    expect(await userForSession(ctx, token)).toBeNull();
  });

  it("ends the session at logout and leaves the user's other sessions open", async () => {
    const first = await signedIn();
    const second = await login({
      ctx,
      input: { email: first.user.email, password: "session password", ip: "127.0.0.2", userAgent: "other" },
    });
    await logout(ctx, first.token);
    expect(await userForSession(ctx, first.token)).toBeNull();
    expect((await userForSession(ctx, second.token))?.id).toBe(first.user.id);
  });

  it.each([
    ["no token", undefined],
    ["an empty token", ""],
    ["an unknown token", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["an oversized token", "x".repeat(129)],
  ])("resolves %s to no user", async (_what, token) => {
    await signedIn();
    expect(await userForSession(ctx, token)).toBeNull();
  });

  it("does nothing at logout without a token", async () => {
    const { token } = await signedIn();
    await logout(ctx, undefined);
    expect(await userForSession(ctx, token)).not.toBeNull();
  });
});
