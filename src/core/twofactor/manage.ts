import { verifyPassword } from "../accounts/password";
import type { Ctx } from "../context";
import { auditForUser } from "../audit/record";
import { auditTwoFactor } from "./audit";
import { conflict, invalidInput, notFound } from "../errors";
import type { Account } from "../ports/accounts";
import { hasTwoFactor, useCode } from "./check-code";
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from "./recovery-codes";
import { countCodeAttempt } from "./throttle";

/**
 * Turns two-factor off. A session alone is not enough (one left open on a shared computer
 * must not be): it takes the password or a current code, counted like sign-in codes.
 */
export async function disableTwoFactor({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: Pick<Account, "id">;
  input: { proof: string; ip: string };
}): Promise<void> {
  if (!(await hasTwoFactor(ctx, user.id))) throw conflict("Two-factor sign-in is already off.");
  const attempt = await countCodeAttempt(ctx, user.id, input.ip);
  const proof = input.proof.slice(0, 1024);
  const stored = await ctx.accounts.userById(user.id);
  const ok =
    (await useCode(ctx, user.id, proof, { recovery: true })) !== null ||
    (stored !== null && (await verifyPassword(proof, stored.password_hash)));
  if (!ok) throw invalidInput("That is neither your password nor a current code.", { proof: "not right" });
  await attempt.succeeded();
  await ctx.twoFactor.disable(user.id);
  await auditTwoFactor(ctx, user.id, input.ip, "user.disable-2fa");
}

/** Who the audit log names for a change made with the `telltale` command. */
export const COMMAND_LINE = "the telltale command";

/**
 * Turns a user's two-factor sign-in off from the server's command line (`telltale user
 * reset-2fa`), for someone who lost both their authenticator and their recovery codes: access to
 * the server's shell and settings is the proof, as for `user set-password`. Every session of
 * theirs is signed out, and the audit log of each of their organizations says it was done from
 * the command line rather than by them.
 */
export async function resetTwoFactorByEmail({ ctx, input }: { ctx: Ctx; input: { email: string } }): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  const user = await ctx.accounts.userByEmail(email);
  if (!user) throw notFound(`no user with email '${email}'`);
  if (!(await hasTwoFactor(ctx, user.id))) throw conflict(`${user.email} has no two-factor sign-in to reset`);
  await ctx.twoFactor.disable(user.id);
  await ctx.accounts.deleteSessions(user.id, null);
  await auditForUser(
    ctx,
    user.id,
    { user: null, label: COMMAND_LINE, tokenId: null, ip: null },
    { event: "user.disable-2fa", target: { type: "user", id: user.id, label: user.email } },
  );
  return user;
}

/** Replaces the recovery codes (all of them: the old ones stop working), given a current code. */
export async function renewRecoveryCodes({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: Pick<Account, "id">;
  input: { code: string; ip: string };
}): Promise<{ recoveryCodes: string[] }> {
  if (!(await hasTwoFactor(ctx, user.id))) throw conflict("Turn on two-factor sign-in first.");
  const attempt = await countCodeAttempt(ctx, user.id, input.ip);
  if ((await useCode(ctx, user.id, input.code.slice(0, 64), { recovery: false })) === null)
    throw invalidInput("That code is not right. Enter the 6-digit code your app shows now.", { code: "not right" });
  await attempt.succeeded();
  const recoveryCodes = newRecoveryCodes();
  await ctx.twoFactor.replaceRecoveryCodes(
    user.id,
    recoveryCodes.map((code) => hashRecoveryCode(normaliseRecoveryCode(code)!)),
    ctx.now(),
  );
  await auditTwoFactor(ctx, user.id, input.ip, "user.regenerate-recovery-codes");
  return { recoveryCodes };
}

/** The account page's summary of a user's two-factor sign-in. */
export async function twoFactorStatus(ctx: Ctx, userId: number): Promise<{ since: number; recoveryCodesLeft: number } | null> {
  const totp = await ctx.twoFactor.totp(userId);
  return totp ? { since: totp.createdAt, recoveryCodesLeft: await ctx.twoFactor.recoveryCodesLeft(userId) } : null;
}
