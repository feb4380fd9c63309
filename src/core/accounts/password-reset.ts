import type { Ctx } from "../context";
import { invalidInput, notFound, throttled } from "../errors";
import { renderEmail } from "../email/templates";
import type { OutgoingEmail } from "../email/mailer";
import { throttleKey } from "../net/ip";
import type { Account } from "../ports/accounts";
import { validate } from "../validate";
import { sessionOrSecondFactor, type PasswordSignIn } from "./login";
import { refusePasswordSignIn } from "../sso/require";
import { hashPassword } from "./password";
import {
  hashResetToken,
  isResetTokenShape,
  newResetToken,
  RESET_MAX_PER_ACCOUNT,
  RESET_MAX_PER_ADDRESS,
  RESET_TOKEN_TTL_MS,
  resetTokenExpired,
} from "./reset-tokens";
import { Email, Password } from "./schemas";

/** What the forgot-password page says whether or not the account exists (no enumeration). */
export const RESET_REQUESTED = "If an account exists for that address, we sent it a link to choose a new password.";

export const RESET_LINK_INVALID = "This link has expired or was already used. Ask for a new one.";

/** Makes a reset token for the user and answers the link that carries it. */
export async function issueResetLink(ctx: Ctx, userId: number): Promise<string> {
  const token = newResetToken();
  const now = ctx.now();
  await ctx.accounts.addResetToken({ id: hashResetToken(token), userId, createdAt: now, expiresAt: now + RESET_TOKEN_TTL_MS });
  return `${ctx.publicUrl}/reset-password/${token}`;
}

/** The email that carries a reset link. */
export function resetEmail(ctx: Ctx, user: Pick<Account, "email">, link: string): OutgoingEmail {
  const host = new URL(ctx.publicUrl).host;
  return {
    to: user.email,
    ...renderEmail({
      subject: "Reset your Telltale password",
      heading: "Choose a new password",
      paragraphs: [
        `Someone asked to reset the password of ${user.email} on Telltale at ${host}.`,
        "The link below works once, within an hour. If it was not you, ignore this email: your password stays as it is.",
      ],
      action: { label: "Choose a new password", url: link },
      footer: `Telltale at ${host}`,
    }),
  };
}

/**
 * "Forgot your password?": counts the request against the client address and the email
 * (whether or not an account has it, so the count reveals nothing), then, for an existing
 * account, mails a link. The caller answers RESET_REQUESTED either way. The email is sent in
 * the background, so an existing account does not answer slower than a missing one; `sent`
 * settles when the mailer is done (tests await it). Counters share the sign-in window.
 */
export async function requestPasswordReset({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { email: string; ip: string };
}): Promise<{ sent: Promise<boolean> }> {
  const mailer = ctx.mailer;
  if (!mailer) throw notFound("Email is not set up on this server.");
  const email = validate(Email, input.email);
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  await ctx.accounts.forgetExpiredAttempts(now, windowMs);
  const byIp = await ctx.accounts.countAttempt(`reset-ip:${throttleKey(input.ip)}`, now, windowMs);
  const byAccount = await ctx.accounts.countAttempt(`reset-account:${email}`, now, windowMs);
  const over = byIp.attempts > RESET_MAX_PER_ADDRESS ? byIp : byAccount.attempts > RESET_MAX_PER_ACCOUNT ? byAccount : null;
  if (over) {
    const retryAfter = Math.max(1, Math.ceil((over.windowStart + windowMs - now) / 1000));
    throw throttled(`Too many reset requests. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
  }
  const user = await ctx.accounts.userByEmail(email);
  if (!user) return { sent: Promise.resolve(false) };
  const link = await issueResetLink(ctx, user.id);
  const sent = mailer.send(resetEmail(ctx, user, link)).then(
    () => true,
    () => false,
  );
  return { sent };
}

/** The user a reset link is for, or null when it is unknown, used or expired. */
export async function userForResetToken(ctx: Ctx, token: string): Promise<Pick<Account, "id" | "email"> | null> {
  if (!isResetTokenShape(token)) return null;
  const found = await ctx.accounts.resetToken(hashResetToken(token));
  if (!found || resetTokenExpired(found.expiresAt, ctx.now())) return null;
  return found.user;
}

/**
 * Sets the new password with a reset link: single use (the token is deleted in the same
 * transaction that checks it, so two submissions cannot both pass), and every other reset
 * token of the user dies with it. Every session of the user ends; a new one is opened here, or,
 * for a user with two-factor sign-in, a pending sign-in that their code completes.
 */
export async function resetPassword({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { token: string; password: string; ip: string; userAgent: string };
}): Promise<PasswordSignIn> {
  const password = validate(Password, input.password);
  if (!isResetTokenShape(input.token)) throw invalidInput(RESET_LINK_INVALID);
  const user = await ctx.accounts.useResetToken(hashResetToken(input.token), ctx.now(), await hashPassword(password));
  if (!user) throw invalidInput(RESET_LINK_INVALID);
  await refusePasswordSignIn(ctx, user);
  return sessionOrSecondFactor(ctx, user, input.ip, input.userAgent);
}
