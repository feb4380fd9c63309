import type { Ctx } from "../context";
import { auditTwoFactor } from "./audit";
import { conflict, invalidInput } from "../errors";
import type { Account } from "../ports/accounts";
import { hasTwoFactor, TOTP_PURPOSE } from "./check-code";
import { hashRecoveryCode, newRecoveryCodes, normaliseRecoveryCode } from "./recovery-codes";
import { countCodeAttempt } from "./throttle";
import { newTotpSecret, TOTP_SECRET, totpStep, totpUri } from "./totp";

export interface EnrolmentOffer {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  /** The `otpauth://` URI the QR code shows. */
  uri: string;
}

/**
 * A fresh secret to enrol with. Nothing is stored until a code from the app confirms it
 * (`confirmEnrolment`): the page carries the secret in its form, and a page left open stores nothing.
 */
export function offerEnrolment(ctx: Ctx, user: Pick<Account, "email">): EnrolmentOffer {
  const secret = newTotpSecret();
  return { secret, uri: totpUri(secret, user.email, ctx.publicUrl) };
}

/**
 * Turns two-factor on once the app shows a right code for the offered secret, and hands out
 * the recovery codes, once: only their hashes are kept. Counted like sign-in codes.
 */
export async function confirmEnrolment({
  ctx,
  user,
  input,
}: {
  ctx: Ctx;
  user: Pick<Account, "id">;
  input: { secret: string; code: string; ip: string };
}): Promise<{ recoveryCodes: string[] }> {
  if (!TOTP_SECRET.test(input.secret)) throw invalidInput("The setup form is out of date. Reload the page and scan the new code.");
  if (await hasTwoFactor(ctx, user.id)) throw conflict("Two-factor sign-in is already on.");
  const attempt = await countCodeAttempt(ctx, user.id, input.ip);
  const step = await totpStep(input.secret, input.code.trim().replace(/\s/g, ""), ctx.now(), null);
  if (step === null) throw invalidInput("That code is not right. Enter the 6-digit code your app shows now.", { code: "not right" });
  await attempt.succeeded();
  const recoveryCodes = newRecoveryCodes();
  const hashes = recoveryCodes.map((code) => hashRecoveryCode(normaliseRecoveryCode(code)!));
  const enabled = await ctx.twoFactor.enable(user.id, ctx.secrets.seal(input.secret, TOTP_PURPOSE), step, hashes, ctx.now());
  if (!enabled) throw conflict("Two-factor sign-in is already on.");
  await auditTwoFactor(ctx, user.id, input.ip, "user.enable-2fa");
  return { recoveryCodes };
}
