import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, openTestStore, testCtx, type TestStore } from "../../../test/support/stores";
import { createUser } from "../accounts/create-user";
import { login, passwordSignIn, type PasswordSignIn } from "../accounts/login";
import { userForSession } from "../accounts/sessions";
import type { Ctx } from "../context";
import { SecretBox } from "../crypto/secret-box";
import { createOrganization } from "../orgs/create-org";
import { authorize } from "../permissions/authorize";
import type { User } from "../accounts/user";
import { CHALLENGE_TTL_MS } from "./challenge";
import { CHALLENGE_EXPIRED, completeSignIn, WRONG_CODE } from "./complete-sign-in";
import { confirmEnrolment, offerEnrolment } from "./enrol";
import { disableTwoFactor, renewRecoveryCodes, twoFactorStatus } from "./manage";
import { RECOVERY_CODE_COUNT } from "./recovery-codes";
import { setTwoFactorRequired, TWO_FACTOR_REQUIRED } from "./require";
import { TOTP_PERIOD_SECONDS, totpCodeAt } from "./totp";

const PASSWORD = "password-123";
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

describe.each(DIALECTS)("two-factor sign-in on %s", (dialect) => {
  let store: TestStore;
  let ctx: Ctx;
  let clock: number;
  let n = 0;
  let user: User;
  let secret: string;
  let recoveryCodes: string[];
  const ip = () => `10.40.${n}.1`;

  const signInWithPassword = (): Promise<PasswordSignIn> =>
    passwordSignIn({ ctx, input: { email: user.email, password: PASSWORD, ip: ip(), userAgent: "vitest" } });
  const challenge = async () => {
    const result = await signInWithPassword();
    if (result.kind !== "second-factor") throw new Error("expected the second factor to be asked for");
    return result.challenge;
  };
  const complete = async (code: string, token?: string) =>
    completeSignIn({ ctx, input: { challenge: token ?? (await challenge()), code, ip: ip(), userAgent: "vitest" } });
  /** The next step's code: each sign-in moves the clock on, as a code works once. */
  const nextCode = () => {
    clock += STEP_MS;
    return totpCodeAt(secret, clock);
  };

  beforeAll(async () => {
    store = await openTestStore(dialect);
    clock = Date.UTC(2026, 10, 27, 9, 0, 0);
    ctx = testCtx(store, { now: () => clock, secrets: new SecretBox("a test server key that is 32+ characters long") });
  });
  afterAll(() => store.cleanup());
  beforeEach(async () => {
    n++;
    user = await createUser({ ctx, input: { email: `user${n}@example.com`, password: PASSWORD } });
    secret = offerEnrolment(ctx, user).secret;
    ({ recoveryCodes } = await confirmEnrolment({ ctx, user, input: { secret, code: await totpCodeAt(secret, clock), ip: ip() } }));
  });

  it("turns on with a code from the app, stores the secret sealed and hands out ten recovery codes", async () => {
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    const row = await store.db.selectFrom("user_totp").select("secret").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.secret.startsWith("v1:")).toBe(true);
    expect(row.secret).not.toContain(secret);
    const hashes = await store.db.selectFrom("recovery_codes").select("code_hash").where("user_id", "=", user.id).execute();
    expect(hashes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of recoveryCodes) expect(hashes.map((h) => h.code_hash).join(" ")).not.toContain(code.replace(/-/g, ""));
    expect(await twoFactorStatus(ctx, user.id)).toEqual({ since: clock, recoveryCodesLeft: RECOVERY_CODE_COUNT });
  });

  it("refuses a wrong code at enrolment and stores nothing", async () => {
    const other = await createUser({ ctx, input: { email: `other${n}@example.com`, password: PASSWORD } });
    const offer = offerEnrolment(ctx, other);
    const right = await totpCodeAt(offer.secret, clock);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    await expect(confirmEnrolment({ ctx, user: other, input: { secret: offer.secret, code: wrong, ip: ip() } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    expect(await twoFactorStatus(ctx, other.id)).toBeNull();
  });

  it("asks for the code after the password: the pending sign-in is no session, and the right code opens one", async () => {
    const token = await challenge();
    expect(await userForSession(ctx, token)).toBeNull();
    await expect(login({ ctx, input: { email: user.email, password: PASSWORD, ip: ip(), userAgent: "vitest" } })).rejects.toMatchObject({
      code: "unauthenticated",
    });
    const session = await complete(await nextCode(), token);
    expect(session.used).toBe("totp");
    expect((await userForSession(ctx, session.token))?.id).toBe(user.id);
    // The pending sign-in works once.
    await expect(complete(await nextCode(), token)).rejects.toMatchObject({ message: CHALLENGE_EXPIRED });
  });

  it("accepts a code once: the same code again is refused, even one step later", async () => {
    const code = await nextCode();
    await complete(code);
    await expect(complete(code)).rejects.toMatchObject({ message: WRONG_CODE });
    clock += STEP_MS / 2;
    await expect(complete(code)).rejects.toMatchObject({ message: WRONG_CODE });
  });

  it("lets a recovery code sign in once, typed in any case and without dashes", async () => {
    const code = recoveryCodes[3]!;
    const session = await complete(code.toUpperCase().replace(/-/g, " "));
    expect(session.used).toBe("recovery");
    await expect(complete(code)).rejects.toMatchObject({ message: WRONG_CODE });
    expect((await twoFactorStatus(ctx, user.id))?.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it("records how each sign-in was made and why a code was refused, a used-up recovery code included", async () => {
    const org = await createOrganization({ ctx, input: { slug: `audit${n}`, owner: user.email } });
    const entries = async () =>
      (await store.db.selectFrom("audit_log").select(["event", "data"]).where("organization_id", "=", org.id).orderBy("id").execute()).map(
        (e) => [e.event, (JSON.parse(e.data) as { after?: unknown }).after],
      );
    await complete(await nextCode());
    const code = recoveryCodes[5]!;
    await complete(code);
    await expect(complete(code)).rejects.toMatchObject({ message: WRONG_CODE });
    await expect(complete("zzzz-zzzz-zzzz-zzzz")).rejects.toMatchObject({ message: WRONG_CODE });
    const near = await Promise.all([-1, 0, 1].map((k) => totpCodeAt(secret, clock + k * STEP_MS)));
    await expect(complete(["123456", "234567"].find((c) => !near.includes(c))!)).rejects.toMatchObject({ message: WRONG_CODE });
    expect(await entries()).toEqual([
      ["user.login", { method: "password", secondFactor: "TOTP" }],
      ["user.login", { method: "password", secondFactor: "recovery code", recoveryCodesLeft: RECOVERY_CODE_COUNT - 1 }],
      ["user.login-failed", { method: "password", reason: "recovery code already used" }],
      ["user.login-failed", { method: "password", reason: "unknown recovery code" }],
      ["user.login-failed", { method: "password", reason: "wrong TOTP code" }],
    ]);
  });

  it("lets a pending sign-in expire", async () => {
    const token = await challenge();
    clock += CHALLENGE_TTL_MS + 1;
    await expect(complete(await totpCodeAt(secret, clock), token)).rejects.toMatchObject({ message: CHALLENGE_EXPIRED });
  });

  it("throttles wrong codes: past the limit even the right code is refused until the window ends", async () => {
    const org = await createOrganization({ ctx, input: { slug: `throttle${n}`, owner: user.email } });
    const token = await challenge();
    // Codes none of which is right now, a step before or a step after.
    const near = await Promise.all([-1, 0, 1, 2].map((k) => totpCodeAt(secret, clock + k * STEP_MS)));
    const wrong = Array.from({ length: 20 }, (_, i) => String(123450 + i)).filter((c) => !near.includes(c));
    for (let i = 0; i < ctx.limits.loginMaxFailures; i++)
      await expect(complete(wrong[i]!, token)).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(complete(await nextCode(), token)).rejects.toMatchObject({ code: "throttled" });
    // From another address too: the user's second factor has its own counter.
    n += 1000;
    await expect(complete(await nextCode(), token)).rejects.toMatchObject({ code: "throttled" });
    // Each counter's first refusal of the window is in the log (the address's, then the second
    // factor's own from the other address), not each refusal after it.
    const reasons = await store.db.selectFrom("audit_log").select("data").where("organization_id", "=", org.id).execute();
    expect(reasons.filter((r) => r.data.includes('"reason":"throttled"'))).toHaveLength(2);
    clock += ctx.limits.loginWindowSeconds * 1000;
    expect((await complete(await nextCode())).used).toBe("totp");
  });

  it("renews recovery codes with a current code: the old ones stop working", async () => {
    const { recoveryCodes: fresh } = await renewRecoveryCodes({ ctx, user, input: { code: await nextCode(), ip: ip() } });
    await expect(complete(recoveryCodes[0]!)).rejects.toMatchObject({ message: WRONG_CODE });
    expect((await complete(fresh[0]!)).used).toBe("recovery");
  });

  it("turns off with the password, not with a wrong one; then the password alone signs in", async () => {
    await expect(disableTwoFactor({ ctx, user, input: { proof: "not the password", ip: ip() } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await disableTwoFactor({ ctx, user, input: { proof: PASSWORD, ip: ip() } });
    expect(await twoFactorStatus(ctx, user.id)).toBeNull();
    expect((await signInWithPassword()).kind).toBe("session");
    expect(await store.db.selectFrom("recovery_codes").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("turns off with a current code too", async () => {
    await disableTwoFactor({ ctx, user, input: { proof: await nextCode(), ip: ip() } });
    expect(await twoFactorStatus(ctx, user.id)).toBeNull();
  });

  it("requires two-factor of an organization's members: refused without it, allowed once on", async () => {
    const owner = user;
    const member = await createUser({ ctx, input: { email: `member${n}@example.com`, password: PASSWORD } });
    const org = await createOrganization({ ctx, input: { slug: `acme-${n}`, owner: owner.email } });
    await store.db
      .insertInto("memberships")
      .values({ organization_id: org.id, user_id: member.id, role: "member", created_at: clock })
      .execute();
    const access = await authorize(ctx, owner, "org:require-two-factor", org.slug);

    // Only someone who has it may require it.
    const memberAccess = await authorize(ctx, member, "org:read", org.slug);
    await expect(setTwoFactorRequired({ ctx, user: member, access: memberAccess, required: true })).rejects.toMatchObject({
      code: "conflict",
    });
    await setTwoFactorRequired({ ctx, user: owner, access, required: true });

    await expect(authorize(ctx, member, "org:read", org.slug)).rejects.toMatchObject({
      code: "forbidden",
      message: TWO_FACTOR_REQUIRED,
      details: { twoFactorRequired: true },
    });
    expect((await authorize(ctx, owner, "org:read", org.slug)).org.slug).toBe(org.slug);

    const offer = offerEnrolment(ctx, member);
    await confirmEnrolment({ ctx, user: member, input: { secret: offer.secret, code: await totpCodeAt(offer.secret, clock), ip: ip() } });
    expect((await authorize(ctx, member, "org:read", org.slug)).role).toBe("member");

    await setTwoFactorRequired({ ctx, user: owner, access, required: false });
    await disableTwoFactor({ ctx, user: member, input: { proof: PASSWORD, ip: ip() } });
    expect((await authorize(ctx, member, "org:read", org.slug)).role).toBe("member");
  });

  it("writes each change and sign-in into the audit log of every organization the user belongs to", async () => {
    const a = await createOrganization({ ctx, input: { slug: `audit-a-${n}`, owner: user.email } });
    const b = await createOrganization({ ctx, input: { slug: `audit-b-${n}`, owner: user.email } });
    const events = async (orgId: number) =>
      (await ctx.audit.list(orgId, { actorUserId: user.id, limit: 50 })).map((e) => e.event).reverse();
    await renewRecoveryCodes({ ctx, user, input: { code: await nextCode(), ip: ip() } });
    const wrong = String((Number(await totpCodeAt(secret, clock + STEP_MS)) + 1) % 1_000_000).padStart(6, "0");
    await expect(complete(wrong)).rejects.toMatchObject({ message: WRONG_CODE });
    await complete(await nextCode());
    await disableTwoFactor({ ctx, user, input: { proof: PASSWORD, ip: ip() } });
    const expected = ["user.regenerate-recovery-codes", "user.login-failed", "user.login", "user.disable-2fa"];
    expect(await events(a.id)).toEqual(expected);
    expect(await events(b.id)).toEqual(expected);
    const [entry] = await ctx.audit.list(a.id, { event: "user.disable-2fa", limit: 1 });
    expect(entry).toMatchObject({ actorUserId: user.id, ipAddress: ip(), targetType: "user", targetLabel: user.email });
  });
});
