import type { Ctx } from "../context";
import { throttled } from "../errors";
import { throttleKey } from "../net/ip";

/** A counted attempt at a code; `succeeded` gives it back, as a right password does (decision 0007). */
export interface CodeAttempt {
  succeeded(): Promise<void>;
}

/**
 * Counts an attempt at a second-factor code before it is checked, as sign-in counts passwords
 * (decision 0007, reused as decision 0023 says): against the client address, shared with
 * password sign-ins (`loginMaxFailures`), and against the user's second factor, also
 * `loginMaxFailures` per window from all addresses: whoever gets here knows the password (or
 * holds a session), so the looser per-account limit of passwords would be too generous for
 * a 6-digit code. Past either limit the attempt is refused unchecked.
 */
export async function countCodeAttempt(
  ctx: Ctx,
  userId: number,
  ip: string,
  /** Called for the first refused attempt of a window (not for every one: the log is not a counter). */
  onThrottled?: () => Promise<void>,
): Promise<CodeAttempt> {
  const now = ctx.now();
  const windowMs = ctx.limits.loginWindowSeconds * 1000;
  await ctx.accounts.forgetExpiredAttempts(now, windowMs);
  const keys = [`ip:${throttleKey(ip)}`, `2fa:${userId}`];
  const counted: { key: string; windowStart: number }[] = [];
  for (const key of keys) {
    const count = await ctx.accounts.countAttempt(key, now, windowMs);
    if (count.attempts > ctx.limits.loginMaxFailures) {
      if (count.attempts === ctx.limits.loginMaxFailures + 1) await onThrottled?.();
      const retryAfter = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
      throw throttled(`Too many wrong codes. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`, retryAfter);
    }
    counted.push({ key, windowStart: count.windowStart });
  }
  return {
    async succeeded() {
      for (const { key, windowStart } of counted) await ctx.accounts.refundAttempt(key, windowStart);
    },
  };
}
