import { createHash, randomBytes } from "node:crypto";
import { auditForUser } from "../audit/record";
import type { Ctx } from "../context";
import type { AttemptCount } from "../ports/accounts";
import { throttled, unauthenticated } from "../errors";
import { throttleKey } from "../net/ip";
import { openChallenge } from "../twofactor/challenge";
import { hasTwoFactor } from "../twofactor/check-code";
import { refusePasswordSignIn } from "../sso/require";
import { dummyHash, verifyPassword } from "./password";
import type { User } from "./user";

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string;
}

export interface LoginResult {
  user: User;
  /** The cookie value: shown to the browser once, stored only as its hash. */
  token: string;
  expiresAt: number;
}

/**
 * What a right password leads to: a session, or, for a user with two-factor sign-in, a pending
 * sign-in (src/core/twofactor/challenge.ts) that the code completes (decision 0023).
 */
export type PasswordSignIn =
  ({ kind: "session" } & LoginResult) | { kind: "second-factor"; user: User; challenge: string; expiresAt: number };

export const hashSessionToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Checks the password, then opens a session or, for a user with two-factor sign-in, a pending
 * sign-in (decision 0023). Throttled as decision 0007 records: every
 * attempt is counted *before* the password is checked, atomically, first against the
 * client address (`loginMaxFailures` per window; IPv6 per /64), then against the account
 * (`loginAccountMaxFailures`, higher, against guessing from many addresses). Past either
 * limit the attempt answers "throttled" unchecked, even with the right password, so
 * parallel guesses get no more checks than the limit. A right password gives its attempt back.
 */
export async function passwordSignIn({ ctx, input }: { ctx: Ctx; input: LoginInput }): Promise<PasswordSignIn> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  await ctx.accounts.forgetExpiredAttempts(now, windowMs);

  const ipKey = `ip:${throttleKey(input.ip)}`;
  const byIp = await ctx.accounts.countAttempt(ipKey, now, windowMs);
  if (byIp.attempts > ctx.limits.loginMaxFailures) {
    await auditThrottled(ctx, input, byIp, ctx.limits.loginMaxFailures);
    throw tooMany(byIp, now, windowMs);
  }
  // An address is at most 254 characters (RFC 5321); a longer "email" is no account's, and
  // must not grow the counter table by what a request can carry.
  const accountKey = `account:${email.slice(0, 320)}`;
  const byAccount = await ctx.accounts.countAttempt(accountKey, now, windowMs);
  if (byAccount.attempts > ctx.limits.loginAccountMaxFailures) {
    await auditThrottled(ctx, input, byAccount, ctx.limits.loginAccountMaxFailures);
    throw tooMany(byAccount, now, windowMs);
  }

  const stored = await ctx.accounts.credentials(email);
  const ok = await verifyPassword(input.password, stored?.passwordHash ?? (await dummyHash()));
  const user = stored?.user;
  if (!user || !ok) {
    if (user) await auditPasswordSignIn(ctx, user, input.ip, "wrong password");
    throw unauthenticated("Wrong email or password.");
  }

  await ctx.accounts.refundAttempt(ipKey, byIp.windowStart);
  await ctx.accounts.refundAttempt(accountKey, byAccount.windowStart);
  try {
    await refusePasswordSignIn(ctx, user);
  } catch (error) {
    await auditPasswordSignIn(ctx, user, input.ip, "single sign-on required");
    throw error;
  }
  const result = await sessionOrSecondFactor(ctx, user, input.ip, input.userAgent);
  // With two-factor sign-in the entry is written when the code completes it (src/core/twofactor).
  if (result.kind === "session") await auditPasswordSignIn(ctx, user, input.ip, null);
  return result;
}

/**
 * Signs in where no second factor can be asked for (a new account's first sign-in, scripts and
 * tests): a user with two-factor sign-in is refused, never let past it. The sign-in form uses
 * `passwordSignIn`.
 */
export async function login(args: { ctx: Ctx; input: LoginInput }): Promise<LoginResult> {
  const result = await passwordSignIn(args);
  if (result.kind !== "session") throw unauthenticated("This account signs in with a second factor: use the sign-in page.");
  return { user: result.user, token: result.token, expiresAt: result.expiresAt };
}

/** After a proof of the password (sign-in, a reset link): a session, or the second factor first. */
export async function sessionOrSecondFactor(ctx: Ctx, user: User, ip: string, userAgent: string): Promise<PasswordSignIn> {
  if (await hasTwoFactor(ctx, user.id)) return { kind: "second-factor", user, ...(await openChallenge(ctx, user.id, ip, userAgent)) };
  return { kind: "session", ...(await openSession(ctx, user, ip, userAgent)) };
}

/** Opens a session for a user whose identity was proven (a password, a reset link). */
export async function openSession(ctx: Ctx, user: User, ip: string, userAgent: string): Promise<LoginResult> {
  const now = ctx.now();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + ctx.limits.sessionDays * 86_400_000;
  await ctx.accounts.addSession({
    id: hashSessionToken(token),
    userId: user.id,
    createdAt: now,
    expiresAt,
    ip,
    userAgent: userAgent.slice(0, 512),
  });
  return { user, token, expiresAt };
}

/**
 * A password sign-in, or its failure with `reason`, in the audit log of each organization the
 * account belongs to (decision 0024): the method and the reason are for the organization's
 * owners, the client is told no more than before. A failure for an address with no account
 * belongs to no organization, so it is in no log.
 */
async function auditPasswordSignIn(ctx: Ctx, user: User, ip: string, reason: string | null): Promise<void> {
  await auditForUser(
    ctx,
    user.id,
    { user, tokenId: null, ip },
    {
      event: reason === null ? "user.login" : "user.login-failed",
      target: { type: "user", id: user.id, label: user.email },
      after: reason === null ? { method: "password" } : { method: "password", reason },
    },
  );
}

/**
 * The first attempt of a window refused past a limit is recorded for the account typed, when it
 * exists; later ones are not, so that a flood of refused guesses cannot flood the log (the
 * counter already says how many there were).
 */
async function auditThrottled(ctx: Ctx, input: LoginInput, count: AttemptCount, limit: number): Promise<void> {
  if (count.attempts !== limit + 1) return;
  const email = input.email.trim().toLowerCase();
  const user = await ctx.accounts.userByEmail(email);
  if (user) await auditPasswordSignIn(ctx, user, input.ip, "throttled");
}

function tooMany(count: AttemptCount, now: number, windowMs: number) {
  const retryAfter = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
  return throttled(`Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
}
