import { countAttempt, forgetExpiredAttempts } from "../../db/login-attempts";
import type { User } from "../../db/schema";
import type { Ctx } from "../context";
import { invalidInput, notFound, throttled } from "../errors";
import { renderEmail } from "../email/templates";
import { throttleKey } from "../net/ip";
import { validate } from "../validate";
import { openSession, type LoginResult } from "./login";
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
  await ctx.db
    .insertInto("password_resets")
    .values({ id: hashResetToken(token), user_id: userId, created_at: now, expires_at: now + RESET_TOKEN_TTL_MS })
    .execute();
  return `${ctx.publicUrl}/reset-password/${token}`;
}

/** The email that carries a reset link. */
export function resetEmail(ctx: Ctx, user: Pick<User, "email">, link: string) {
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
 * settles when the mailer is done (tests await it).
 */
export async function requestPasswordReset({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { email: string; ip: string };
}): Promise<{ sent: Promise<boolean> }> {
  if (!ctx.mailer) throw notFound("Email is not set up on this server.");
  const mailer = ctx.mailer;
  const email = validate(Email, input.email);
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  await forgetExpiredAttempts(ctx.db, now, windowMs);
  const byIp = await countAttempt(ctx.db, `reset-ip:${throttleKey(input.ip)}`, now, windowMs);
  const byAccount = await countAttempt(ctx.db, `reset-account:${email}`, now, windowMs);
  const over = byIp.attempts > RESET_MAX_PER_ADDRESS ? byIp : byAccount.attempts > RESET_MAX_PER_ACCOUNT ? byAccount : null;
  if (over) {
    const retryAfter = Math.max(1, Math.ceil((over.windowStart + windowMs - now) / 1000));
    throw throttled(`Too many reset requests. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
  }
  const user = await ctx.db.selectFrom("users").select(["id", "email"]).where("email", "=", email).executeTakeFirst();
  if (!user) return { sent: Promise.resolve(false) };
  const link = await issueResetLink(ctx, user.id);
  const sent = mailer.send(resetEmail(ctx, user, link)).then(
    () => true,
    () => false,
  );
  return { sent };
}

/** The user a reset link is for, or null when it is unknown, used or expired. */
export async function userForResetToken(ctx: Ctx, token: string): Promise<Pick<User, "id" | "email"> | null> {
  if (!isResetTokenShape(token)) return null;
  const row = await ctx.db
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .select(["users.id", "users.email", "password_resets.expires_at"])
    .where("password_resets.id", "=", hashResetToken(token))
    .executeTakeFirst();
  if (!row || resetTokenExpired(row.expires_at, ctx.now())) return null;
  return { id: row.id, email: row.email };
}

/**
 * Sets the new password with a reset link: single use (the token is deleted in the same
 * transaction that checks it, so two submissions cannot both pass), and every other reset
 * token of the user dies with it. Every session of the user ends; a new one is opened here.
 */
export async function resetPassword({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { token: string; password: string; ip: string; userAgent: string };
}): Promise<LoginResult> {
  const password = validate(Password, input.password);
  if (!isResetTokenShape(input.token)) throw invalidInput(RESET_LINK_INVALID);
  const hash = await hashPassword(password);
  const user = await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .deleteFrom("password_resets")
      .where("id", "=", hashResetToken(input.token))
      .returning(["user_id", "expires_at"])
      .executeTakeFirst();
    if (!used || resetTokenExpired(used.expires_at, ctx.now())) return null;
    await trx.deleteFrom("password_resets").where("user_id", "=", used.user_id).execute();
    await trx.updateTable("users").set({ password_hash: hash }).where("id", "=", used.user_id).execute();
    await trx.deleteFrom("sessions").where("user_id", "=", used.user_id).execute();
    return trx.selectFrom("users").selectAll().where("id", "=", used.user_id).executeTakeFirstOrThrow();
  });
  if (!user) throw invalidInput(RESET_LINK_INVALID);
  return openSession(ctx, user, input.ip, input.userAgent);
}
