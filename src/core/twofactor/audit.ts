import { auditForUser } from "../audit/record";
import type { Ctx } from "../context";
import type { AuditSummary } from "../ports/audit";

/**
 * The events core writes itself rather than through a permission row's handler: a user's own
 * two-factor changes, which belong to no one organization (the audit coverage test counts them
 * as declared here).
 */
export const TWO_FACTOR_AUDIT_EVENTS = ["user.enable-2fa", "user.disable-2fa", "user.regenerate-recovery-codes"] as const;

export type TwoFactorEvent = "user.login" | "user.login-failed" | (typeof TWO_FACTOR_AUDIT_EVENTS)[number];

/**
 * A two-factor change or sign-in in the audit log of each organization the user belongs to, as
 * password sign-ins are (src/core/accounts/login.ts): the account is the user's, the organizations
 * are who must be able to say who turned it off.
 */
export async function auditTwoFactor(
  ctx: Ctx,
  userId: number,
  ip: string,
  event: TwoFactorEvent,
  /** For a sign-in: how, and for a failure why not (decision 0024). */
  after?: AuditSummary,
): Promise<void> {
  const user = await ctx.accounts.userById(userId);
  if (!user) return;
  await auditForUser(ctx, user.id, { user, tokenId: null, ip }, { event, target: { type: "user", id: user.id, label: user.email }, after });
}
