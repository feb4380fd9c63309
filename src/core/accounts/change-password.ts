import type { Ctx } from "../context";
import { invalidInput, notFound, throttled } from "../errors";
import type { Account } from "../ports/accounts";
import { validate } from "../validate";
import { hashSessionToken } from "./login";
import { hashPassword, verifyPassword } from "./password";
import { Password } from "./schemas";

/**
 * The account page's "Change password": the current password is required (a session left
 * open on a shared computer must not be enough), the new one follows setup's rules, and every
 * other session and reset link of the user ends; the session making the change stays.
 * Attempts count against the user like sign-ins from one address (`loginMaxFailures` per
 * window), so a session left open is no way to guess the password either.
 */
export async function changePassword({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: Pick<Account, "id">;
  input: { current: string; password: string; sessionToken: string | undefined };
}): Promise<void> {
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  const count = await ctx.accounts.countAttempt(`password-change:${user.id}`, now, windowMs);
  if (count.attempts > ctx.limits.loginMaxFailures) {
    const retryAfter = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
    throw throttled(`Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
  }
  const stored = await ctx.accounts.userById(user.id);
  if (!stored || !(await verifyPassword(input.current, stored.password_hash))) {
    throw invalidInput("The current password is wrong.", { current: "the current password is wrong" });
  }
  const parsed = Password.safeParse(input.password);
  if (!parsed.success) {
    const problem = parsed.error.issues[0]?.message ?? "choose another password";
    throw invalidInput(`New password: ${problem}.`, { password: problem });
  }
  const keep = input.sessionToken ? hashSessionToken(input.sessionToken) : null;
  await ctx.accounts.setPassword(user.id, await hashPassword(parsed.data), keep);
}

/**
 * An administrator's reset (`telltale user set-password`): no current password, every session
 * and reset link of the user ends, so whoever knew the old password is out.
 */
export async function setPasswordByEmail({ ctx, input }: { ctx: Ctx; input: { email: string; password: string } }): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  const password = validate(Password, input.password);
  const user = await ctx.accounts.userByEmail(email);
  if (!user) throw notFound(`no user with email '${email}'`);
  await ctx.accounts.setPassword(user.id, await hashPassword(password), null);
  return user;
}
