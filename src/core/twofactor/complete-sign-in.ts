import { openSession, type LoginResult } from "../accounts/login";
import type { Ctx } from "../context";
import { auditTwoFactor } from "./audit";
import { unauthenticated } from "../errors";
import { hashChallengeToken } from "./challenge";
import { codeRefusal, useCode } from "./check-code";
import { countCodeAttempt } from "./throttle";

export const CHALLENGE_EXPIRED = "This sign-in has expired. Sign in again.";
export const WRONG_CODE = "That code is not right. Enter the current code from your app, or a recovery code.";

/**
 * The second step of signing in: the pending sign-in's token (its cookie) and a code from the
 * authenticator app or a recovery code. Attempts are counted first (./throttle.ts); a right
 * code opens the session and ends the pending sign-in, which works once.
 */
export async function completeSignIn({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { challenge: string | undefined; code: string; ip: string; userAgent: string };
}): Promise<LoginResult & { used: "totp" | "recovery" }> {
  const token = input.challenge;
  if (!token || token.length > 128) throw unauthenticated(CHALLENGE_EXPIRED);
  const id = hashChallengeToken(token);
  const pending = await ctx.twoFactor.challenge(id, ctx.now());
  if (!pending) throw unauthenticated(CHALLENGE_EXPIRED);
  // The entries say how the sign-in was made and, for a failure, why (decision 0024); the
  // client is told no more than before.
  const failed = (reason: string) => auditTwoFactor(ctx, pending.userId, input.ip, "user.login-failed", { method: "password", reason });
  const attempt = await countCodeAttempt(ctx, pending.userId, input.ip, () => failed("throttled"));
  const code = input.code.slice(0, 64);
  const used = await useCode(ctx, pending.userId, code, { recovery: true });
  if (!used) {
    await failed(await codeRefusal(ctx, pending.userId, code));
    throw unauthenticated(WRONG_CODE);
  }
  await attempt.succeeded();
  const user = await ctx.accounts.userById(pending.userId);
  if (!user || !(await ctx.twoFactor.takeChallenge(id))) throw unauthenticated(CHALLENGE_EXPIRED);
  const session = await openSession(ctx, user, input.ip, input.userAgent);
  await auditTwoFactor(
    ctx,
    user.id,
    input.ip,
    "user.login",
    used === "totp"
      ? { method: "password", secondFactor: "TOTP" }
      : { method: "password", secondFactor: "recovery code", recoveryCodesLeft: await ctx.twoFactor.recoveryCodesLeft(user.id) },
  );
  return { ...session, used };
}
