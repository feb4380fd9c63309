import { createHash, randomBytes } from "node:crypto";
import { countAttempt, forgetExpiredAttempts, refundAttempt, type AttemptCount } from "../../db/login-attempts";
import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { throttled, unauthenticated } from "../errors";
import { throttleKey } from "../net/ip";
import { refusePasswordSignIn } from "../sso/require";
import { dummyHash, verifyPassword } from "./password";

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

export const hashSessionToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Checks the password and opens a session, throttled as decision 0007 records: every
 * attempt is counted *before* the password is checked, atomically, first against the
 * client address (`loginMaxFailures` per window; IPv6 per /64), then against the account
 * (`loginAccountMaxFailures`, higher, against guessing from many addresses). Past either
 * limit the attempt answers "throttled" unchecked, even with the right password, so
 * parallel guesses get no more checks than the limit. A right password gives its attempt back.
 */
export async function login({ ctx, input }: { ctx: Ctx; input: LoginInput }): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  await forgetExpiredAttempts(ctx.db, now, windowMs);

  const ipKey = `ip:${throttleKey(input.ip)}`;
  const byIp = await countAttempt(ctx.db, ipKey, now, windowMs);
  if (byIp.attempts > ctx.limits.loginMaxFailures) throw tooMany(byIp, now, windowMs);
  // An address is at most 254 characters (RFC 5321); a longer "email" is no account's, and
  // must not grow the counter table by what a request can carry.
  const accountKey = `account:${email.slice(0, 320)}`;
  const byAccount = await countAttempt(ctx.db, accountKey, now, windowMs);
  if (byAccount.attempts > ctx.limits.loginAccountMaxFailures) throw tooMany(byAccount, now, windowMs);

  const user = await ctx.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
  if (!user || !ok) throw unauthenticated("Wrong email or password.");

  await refundAttempt(ctx.db, ipKey, byIp.windowStart);
  await refundAttempt(ctx.db, accountKey, byAccount.windowStart);
  await refusePasswordSignIn(ctx, user);
  return openSession(ctx, user, input.ip, input.userAgent);
}

/** Opens a session for a user whose identity was proven (a password, a reset link). */
export async function openSession(ctx: Ctx, user: User, ip: string, userAgent: string): Promise<LoginResult> {
  const now = ctx.now();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + ctx.limits.sessionDays * 86_400_000;
  await ctx.db
    .insertInto("sessions")
    .values({
      id: hashSessionToken(token),
      user_id: user.id,
      created_at: now,
      expires_at: expiresAt,
      ip,
      user_agent: userAgent.slice(0, 512),
    })
    .execute();
  return { user, token, expiresAt };
}

function tooMany(count: AttemptCount, now: number, windowMs: number) {
  const retryAfter = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
  return throttled(`Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
}
