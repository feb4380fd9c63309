import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Mailbox } from "../../../test/support/mailbox";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import type { Ctx } from "../context";
import { createUser } from "./create-user";
import { login } from "./login";
import { RESET_REQUESTED, requestPasswordReset, resetPassword, userForResetToken } from "./password-reset";
import { hashResetToken, RESET_MAX_PER_ACCOUNT, RESET_MAX_PER_ADDRESS, RESET_TOKEN_TTL_MS } from "./reset-tokens";
import { userForSession } from "./sessions";

const OLD = "the old password";
const NEW = "a brand new password";

describe.each(DIALECTS)("password reset by email on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let mailbox: Mailbox;
  let clock: number;
  let n = 0;
  let email: string;
  let ip: string;
  let userId = 0;

  const request = async (to = email, from = ip) => (await requestPasswordReset({ ctx, input: { email: to, ip: from } })).sent;
  const reset = (token: string, password = NEW) => resetPassword({ ctx, input: { token, password, ip, userAgent: "vitest" } });
  const signIn = (password: string) => login({ ctx, input: { email, password, ip: "192.0.2.200", userAgent: "vitest" } });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    mailbox = new Mailbox();
    clock = Date.UTC(2026, 0, 1);
    ctx = testCtx(store, { mailer: mailbox, now: () => clock });
  });
  afterAll(() => store.cleanup());
  beforeEach(async () => {
    n++;
    email = `user${n}@example.com`;
    ip = `10.20.${n}.1`;
    userId = (await createUser({ ctx, input: { email, password: OLD } })).id;
  });

  it("mails a link to the public URL and stores only the token's hash", async () => {
    expect(await request(`  ${email.toUpperCase()} `)).toBe(true);
    const sent = mailbox.sent.at(-1)!;
    expect(sent.to).toBe(email);
    expect(sent.subject).toBe("Reset your Telltale password");
    const token = mailbox.resetToken(email);
    expect(sent.text).toContain(`http://telltale.test:8000/reset-password/${token}`);
    expect(sent.html).toContain(`href="http://telltale.test:8000/reset-password/${token}"`);
    const rows = await store.db.selectFrom("password_resets").selectAll().where("id", "=", hashResetToken(token)).execute();
    expect(rows).toEqual([{ id: hashResetToken(token), user_id: userId, created_at: clock, expires_at: clock + RESET_TOKEN_TTL_MS }]);
    expect(JSON.stringify(await store.db.selectFrom("password_resets").selectAll().execute())).not.toContain(token);
  });

  it("answers an unknown address the same way and sends nothing", async () => {
    const before = mailbox.sent.length;
    expect(await request(`nobody${n}@example.com`)).toBe(false);
    expect(mailbox.sent.length).toBe(before);
    expect(RESET_REQUESTED).toMatch(/^If an account exists/);
  });

  it("sets the new password, ends every session and signs the new one in", async () => {
    const before = await signIn(OLD);
    await request();
    const result = await reset(mailbox.resetToken(email));
    expect(result.user.email).toBe(email);
    if (result.kind !== "session") throw new Error("no two-factor here: the reset signs the user in");
    expect(await userForSession(ctx, before.token)).toBeNull();
    expect((await userForSession(ctx, result.token))?.email).toBe(email);
    await expect(signIn(OLD)).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(signIn(NEW)).resolves.toMatchObject({ user: { email } });
  });

  it("works once, and the user's other reset links die with it", async () => {
    await request();
    const first = mailbox.resetToken(email);
    await request();
    const second = mailbox.resetToken(email);
    expect(second).not.toBe(first);
    await reset(second);
    await expect(reset(second, "yet another password")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(reset(first, "yet another password")).rejects.toMatchObject({ code: "invalid_input" });
    expect(await userForResetToken(ctx, first)).toBeNull();
    await expect(signIn(NEW)).resolves.toMatchObject({ user: { email } });
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    await request();
    const token = mailbox.resetToken(email);
    const results = await Promise.allSettled([reset(token, "first of two passwords"), reset(token, "second of two passwords")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("expires an hour after it was sent", async () => {
    await request();
    const token = mailbox.resetToken(email);
    clock += RESET_TOKEN_TTL_MS - 1000;
    expect(await userForResetToken(ctx, token)).toMatchObject({ email });
    clock += 1000;
    expect(await userForResetToken(ctx, token)).toBeNull();
    await expect(reset(token)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(signIn(OLD)).resolves.toMatchObject({ user: { email } });
  });

  it("keeps the old password when the new one breaks setup's rules, and the link stays usable", async () => {
    await request();
    const token = mailbox.resetToken(email);
    await expect(reset(token, "short")).rejects.toMatchObject({ code: "invalid_input", message: /at least 8 characters/ });
    expect(await userForResetToken(ctx, token)).toMatchObject({ email });
  });

  it(`throttles one address after ${RESET_MAX_PER_ADDRESS} requests, whatever the accounts`, async () => {
    for (let i = 0; i < RESET_MAX_PER_ADDRESS; i++) await request(`someone${n}-${i}@example.com`);
    await expect(request()).rejects.toMatchObject({ code: "throttled" });
    await expect(request(email, `10.21.${n}.1`)).resolves.toBe(true);
  });

  it(`throttles one account after ${RESET_MAX_PER_ACCOUNT} requests from any addresses, known or not`, async () => {
    for (let i = 0; i < RESET_MAX_PER_ACCOUNT; i++) await request(email, `10.22.${n}.${i}`);
    await expect(request(email, `10.23.${n}.1`)).rejects.toMatchObject({ code: "throttled" });
    const unknown = `ghost${n}@example.com`;
    for (let i = 0; i < RESET_MAX_PER_ACCOUNT; i++) await request(unknown, `10.24.${n}.${i}`);
    await expect(request(unknown, `10.25.${n}.1`)).rejects.toMatchObject({ code: "throttled" });
  });

  it("answers the same when the mail server fails, and says so to the caller's `sent`", async () => {
    mailbox.failing = true;
    try {
      expect(await request()).toBe(false);
    } finally {
      mailbox.failing = false;
    }
  });

  it("refuses when email is not set up", async () => {
    await expect(requestPasswordReset({ ctx: { ...ctx, mailer: null }, input: { email, ip } })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
