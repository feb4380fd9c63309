import { createHash, randomBytes } from "node:crypto";
import type { Ctx } from "../context";

/**
 * How long the pending sign-in between the password and the code lasts: long enough to open
 * an authenticator app or find a recovery code, short enough that a password typed on a shared
 * computer and abandoned there is soon worth nothing.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export const hashChallengeToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Opens the pending half-session of a user whose password was right and who has two-factor on.
 * It is not a session: only the second-factor page reads it (its own cookie, its own table),
 * so it reaches nothing else. The token is shown to the browser once, stored as its hash.
 */
export async function openChallenge(
  ctx: Ctx,
  userId: number,
  ip: string,
  userAgent: string,
): Promise<{ challenge: string; expiresAt: number }> {
  const now = ctx.now();
  const challenge = randomBytes(32).toString("base64url");
  const expiresAt = now + CHALLENGE_TTL_MS;
  await ctx.twoFactor.forgetExpiredChallenges(now);
  await ctx.twoFactor.addChallenge({
    id: hashChallengeToken(challenge),
    userId,
    createdAt: now,
    expiresAt,
    ip,
    userAgent: userAgent.slice(0, 512),
  });
  return { challenge, expiresAt };
}

/** Whether a challenge cookie names a pending sign-in that has not expired. */
export async function challengePending(ctx: Ctx, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 128) return false;
  return (await ctx.twoFactor.challenge(hashChallengeToken(token), ctx.now())) !== null;
}
