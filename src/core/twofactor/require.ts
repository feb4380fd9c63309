import type { Ctx } from "../context";
import { conflict, forbidden } from "../errors";
import type { Account } from "../ports/accounts";
import type { OrgAccess } from "../orgs/access";
import { hasTwoFactor } from "./check-code";

export const TWO_FACTOR_REQUIRED = "This organization requires two-factor sign-in. Turn it on for your account to continue.";

/**
 * "Require two-factor" for an organization (owners and managers, `org:require-two-factor`). Only
 * someone who has it may require it, as in Sentry: whoever turns it on is not sent to enrol
 * by their own change.
 */
export async function setTwoFactorRequired({
  ctx,
  user,
  access,
  required,
}: {
  ctx: Ctx;
  user: Pick<Account, "id">;
  access: OrgAccess;
  required: boolean;
}): Promise<void> {
  if (required && !(await hasTwoFactor(ctx, user.id)))
    throw conflict("Turn on two-factor sign-in for your own account first, on your account page.");
  await ctx.twoFactor.setOrgRequirement(access.org.id, required);
}

/**
 * Refuses a user without two-factor in an organization that requires it; `authorize` asks this
 * for every page, action and API request there. The refusal is a `forbidden` whose
 * `details.twoFactorRequired` lets pages send the user to enrol (app/lib/loaders.ts).
 */
export async function assertTwoFactorIfRequired(ctx: Ctx, user: Pick<Account, "id">, access: OrgAccess): Promise<void> {
  if (access.org.require_2fa === 1 && !(await hasTwoFactor(ctx, user.id)))
    throw forbidden(TWO_FACTOR_REQUIRED, { twoFactorRequired: true });
}
