import type { Ctx } from "../context";
import { hashRecoveryCode, normaliseRecoveryCode } from "./recovery-codes";
import { isTotpCode, totpStep } from "./totp";

/** What the TOTP secret is sealed as (src/core/crypto/secret-box.ts): its key is for this alone. */
export const TOTP_PURPOSE = "totp";

/**
 * Checks a second-factor code of a user who has two-factor on, and uses it up: a TOTP code's
 * step is recorded (a code works once, even against two requests at once), a recovery code is
 * marked used. Answers which kind worked, or null. The caller counts the attempt first.
 */
export async function useCode(
  ctx: Ctx,
  userId: number,
  text: string,
  { recovery }: { recovery: boolean },
): Promise<"totp" | "recovery" | null> {
  const code = text.trim().replace(/\s/g, "");
  if (isTotpCode(code)) {
    const totp = await ctx.twoFactor.totp(userId);
    if (!totp) return null;
    const step = await totpStep(ctx.secrets.open(totp.secret, TOTP_PURPOSE), code, ctx.now(), totp.lastStep);
    return step !== null && (await ctx.twoFactor.useStep(userId, step)) ? "totp" : null;
  }
  const normalised = recovery ? normaliseRecoveryCode(code) : null;
  if (normalised && (await ctx.twoFactor.useRecoveryCode(userId, hashRecoveryCode(normalised), ctx.now()))) return "recovery";
  return null;
}

/**
 * Why a code `useCode` refused was refused, for the audit log (never for the client, who is told
 * only that the code is not right): a used-up recovery code is worth seeing there.
 */
export async function codeRefusal(ctx: Ctx, userId: number, text: string): Promise<string> {
  const code = text.trim().replace(/\s/g, "");
  if (isTotpCode(code)) return "wrong TOTP code";
  const normalised = normaliseRecoveryCode(code);
  if (!normalised) return "not a code";
  return (await ctx.twoFactor.recoveryCodeUsed(userId, hashRecoveryCode(normalised)))
    ? "recovery code already used"
    : "unknown recovery code";
}

/** Whether the user signs in with a second factor. */
export async function hasTwoFactor(ctx: Ctx, userId: number): Promise<boolean> {
  return (await ctx.twoFactor.totp(userId)) !== null;
}
