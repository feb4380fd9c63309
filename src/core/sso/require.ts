import type { Ctx } from "../context";
import { forbidden } from "../errors";
import type { Account } from "../ports/accounts";

/**
 * "Require SSO": a member of an organization that requires single sign-on
 * may not open a session with a password. Owners may, so that an organization whose provider
 * is down or misconfigured can still be reached and fixed; superusers may, as server
 * administrators. Asked after the password was checked, so the refusal tells nothing to
 * someone who does not know it.
 */
export async function refusePasswordSignIn(ctx: Ctx, user: Pick<Account, "id" | "is_superuser">): Promise<void> {
  if (user.is_superuser === 1) return;
  const required = await ctx.sso.requirementsFor(user.id);
  const first = required[0];
  if (first) {
    throw forbidden(`${first.name} requires single sign-on: use "Sign in with ${first.name} SSO" (organization ${first.slug}).`);
  }
}
