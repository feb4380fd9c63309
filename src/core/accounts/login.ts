import { createHash, randomBytes } from "node:crypto";
import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { throttled, unauthenticated } from "../errors";
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
 * Checks the password and opens a session. Failures are counted per account and per IP:
 * past `loginMaxFailures` within the window every attempt (even a right one) answers
 * "throttled", so guessing cannot continue from one address or against one account.
 */
export async function login({ ctx, input }: { ctx: Ctx; input: LoginInput }): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  const now = ctx.now();
  const windowStart = now - ctx.limits.loginWindowSeconds * 1000;
  await ctx.db.deleteFrom("login_failures").where("at", "<", windowStart).execute();

  const failures = await ctx.db
    .selectFrom("login_failures")
    .select([
      (eb) => eb.fn.sum<number>(eb.case().when("email", "=", email).then(1).else(0).end()).as("byEmail"),
      (eb) => eb.fn.sum<number>(eb.case().when("ip", "=", input.ip).then(1).else(0).end()).as("byIp"),
      (eb) => eb.fn.min<number>("at").as("oldest"),
    ])
    .where((eb) => eb.or([eb("email", "=", email), eb("ip", "=", input.ip)]))
    .executeTakeFirst();
  const max = ctx.limits.loginMaxFailures;
  if (Number(failures?.byEmail ?? 0) >= max || Number(failures?.byIp ?? 0) >= max) {
    const retryAfter = Math.max(1, Math.ceil((Number(failures?.oldest ?? now) + ctx.limits.loginWindowSeconds * 1000 - now) / 1000));
    throw throttled(`Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
  }

  const user = await ctx.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash()));
  if (!user || !ok) {
    await ctx.db.insertInto("login_failures").values({ email, ip: input.ip, at: now }).execute();
    throw unauthenticated("Wrong email or password.");
  }

  const token = randomBytes(32).toString("base64url");
  const expiresAt = now + ctx.limits.sessionDays * 86_400_000;
  await ctx.db
    .insertInto("sessions")
    .values({ id: hashSessionToken(token), user_id: user.id, created_at: now, expires_at: expiresAt, ip: input.ip, user_agent: input.userAgent.slice(0, 512) })
    .execute();
  return { user, token, expiresAt };
}
