import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { TelltaleError } from "../errors";
import { createUser } from "./create-user";
import { hashSessionToken, login, type LoginInput } from "./login";
import { userForSession } from "./sessions";

const WINDOW_SECONDS = 900;
const MAX_FAILURES = 3;
const ACCOUNT_MAX = 7;
const PASSWORD = "the right password";

async function loginError(ctx: Ctx, input: LoginInput): Promise<TelltaleError> {
  const error: unknown = await login({ ctx, input }).then(
    () => new Error("expected the login to fail"),
    (e: unknown) => e,
  );
  if (error instanceof TelltaleError) return error;
  throw error;
}

describe.each(DIALECTS)("login on %s", (dialect) => {
  let store: TestStore;
  let clock: number;
  let ctx: Ctx;
  // Every test gets its own accounts and addresses, so failures recorded by one do not throttle another.
  let n = 0;
  let email: string;
  let ip: string;
  const attempt = (overrides: Partial<LoginInput> = {}): LoginInput => ({
    email,
    password: PASSWORD,
    ip,
    userAgent: "vitest",
    ...overrides,
  });
  const wrong = (overrides: Partial<LoginInput> = {}) => attempt({ password: "a wrong password", ...overrides });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    clock = Date.UTC(2025, 0, 1);
    ctx = testCtx(store, {
      now: () => clock,
      limits: { sessionDays: 14, loginMaxFailures: MAX_FAILURES, loginAccountMaxFailures: ACCOUNT_MAX, loginWindowSeconds: WINDOW_SECONDS },
    });
  });
  afterAll(() => store.cleanup());

  beforeEach(async () => {
    n++;
    email = `user${n}@example.com`;
    ip = `10.0.${n}.1`;
    await createUser({ ctx, input: { email, password: PASSWORD } });
  });

  it("opens a session for the right password and stores only the token's hash", async () => {
    const result = await login({ ctx, input: attempt() });
    expect(result.user.email).toBe(email);
    expect(result.token).toMatch(/^[\w-]{43}$/);
    expect(result.expiresAt).toBe(clock + 14 * 86_400_000);
    const sessions = await store.db.selectFrom("sessions").selectAll().where("user_id", "=", result.user.id).execute();
    expect(sessions).toEqual([
      {
        id: hashSessionToken(result.token),
        user_id: result.user.id,
        created_at: clock,
        expires_at: result.expiresAt,
        ip,
        user_agent: "vitest",
        last_seen_at: null,
      },
    ]);
    expect((await userForSession(ctx, result.token))?.id).toBe(result.user.id);
  });

  it("matches the email whatever its case and surrounding spaces", async () => {
    const result = await login({ ctx, input: attempt({ email: `  ${email.toUpperCase()} ` }) });
    expect(result.user.email).toBe(email);
  });

  it("answers unauthenticated for a wrong password and for an unknown email, with the same message", async () => {
    const wrongPassword = await loginError(ctx, wrong());
    const unknownEmail = await loginError(ctx, attempt({ email: `nobody${n}@example.com` }));
    expect(wrongPassword.code).toBe("unauthenticated");
    expect(unknownEmail.code).toBe("unauthenticated");
    expect(unknownEmail.message).toBe(wrongPassword.message);
  });

  it(`throttles an account after ${ACCOUNT_MAX} failures from many addresses, even for the right password`, async () => {
    for (let i = 0; i < ACCOUNT_MAX; i++) {
      expect((await loginError(ctx, wrong({ ip: `192.0.${n}.${i}` }))).code).toBe("unauthenticated");
    }
    const error = await loginError(ctx, attempt({ ip: "198.51.100.7" }));
    expect(error.code).toBe("throttled");
    expect(error.details.retryAfterSeconds).toBe(WINDOW_SECONDS);
  });

  it(`does not lock an account for ${MAX_FAILURES} failures from each of two other addresses`, async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await loginError(ctx, wrong({ ip: `192.0.${n}.1` }));
    for (let i = 0; i < MAX_FAILURES; i++) await loginError(ctx, wrong({ ip: `192.0.${n}.2` }));
    expect((await loginError(ctx, attempt({ ip: `192.0.${n}.1` }))).code).toBe("throttled");
    await expect(login({ ctx, input: attempt() })).resolves.toMatchObject({ user: { email } });
  });

  it("counts an IPv6 client per /64, whichever address of it guesses", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await loginError(ctx, wrong({ ip: `2001:db8:${n}:1::${i + 1}` }));
    expect((await loginError(ctx, attempt({ ip: `2001:db8:${n}:1:ffff::9` }))).code).toBe("throttled");
    await expect(login({ ctx, input: attempt({ ip: `2001:db8:${n}:2::1` }) })).resolves.toMatchObject({ user: { email } });
  });

  it("gives a right password's attempt back, so signing in often is never throttled", async () => {
    for (let i = 0; i < MAX_FAILURES * 3; i++) await login({ ctx, input: attempt() });
    await loginError(ctx, wrong());
    await expect(login({ ctx, input: attempt() })).resolves.toMatchObject({ user: { email } });
  });

  it(`throttles an address after ${MAX_FAILURES} failures against any accounts, even for the right password`, async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await loginError(ctx, wrong({ email: `guess${n}-${i}@example.com` }))).code).toBe("unauthenticated");
    }
    const error = await loginError(ctx, attempt());
    expect(error.code).toBe("throttled");
    // Another address may still sign in to the same account.
    await expect(login({ ctx, input: attempt({ ip: `10.1.${n}.1` }) })).resolves.toMatchObject({ user: { email } });
  });

  it("does not throttle before the limit is reached", async () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) await loginError(ctx, wrong());
    await expect(login({ ctx, input: attempt() })).resolves.toMatchObject({ user: { email } });
  });

  it("counts retry-after from the first attempt of the window", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) {
      await loginError(ctx, wrong());
      clock += 100_000;
    }
    // Failures at t, t+100 s and t+200 s; now is t+300 s: the oldest leaves the window in 600 s.
    const error = await loginError(ctx, attempt());
    expect(error.details.retryAfterSeconds).toBe(WINDOW_SECONDS - 300);
  });

  it("lets the account sign in again once the failures leave the window", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await loginError(ctx, wrong());
    expect((await loginError(ctx, attempt())).code).toBe("throttled");
    clock += (WINDOW_SECONDS - 1) * 1000;
    expect((await loginError(ctx, attempt())).code).toBe("throttled");
    clock += 2000;
    await expect(login({ ctx, input: attempt() })).resolves.toMatchObject({ user: { email } });
  });

  it("does not lengthen the lock for attempts made while throttled", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await loginError(ctx, wrong());
    for (let i = 0; i < 5; i++) {
      clock += 100_000;
      expect((await loginError(ctx, wrong())).code).toBe("throttled");
    }
    clock += (WINDOW_SECONDS - 500) * 1000;
    await expect(login({ ctx, input: attempt() })).resolves.toMatchObject({ user: { email } });
  });
});
