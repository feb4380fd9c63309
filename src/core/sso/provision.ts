import { randomBytes } from "node:crypto";
import { hashPassword } from "../accounts/password";
import type { Ctx } from "../context";
import { forbidden } from "../errors";
import type { Account } from "../ports/accounts";
import type { SsoProviderRecord } from "../ports/sso";
import type { IdClaims } from "./oidc";

/**
 * Who an ID token of an organization's provider signs in as (decision 0022):
 * 1. the account already linked to its (issuer, subject);
 * 2. else, only when the provider says the email is verified (`email_verified: true`), the
 *    account with that email, linked now, unless it is a superuser or belongs to another
 *    organization: an organization's provider vouches for its own people only, never for
 *    someone else's account on this server;
 * 3. else a new account, without a password, linked to it.
 * The account then is a member of the organization (just in time): with the provider's default
 * role and team when new, keeping the role it has otherwise.
 */
export async function provisionSsoUser(
  ctx: Ctx,
  org: { id: number; name: string },
  provider: SsoProviderRecord,
  claims: IdClaims,
): Promise<Account> {
  const now = ctx.now();
  const issuer = provider.issuer;
  let user = await ctx.sso.identityUser(org.id, issuer, claims.sub, now);
  if (!user) user = await linkOrCreate(ctx, org, issuer, claims, now);
  const teams = await ctx.directory.teams(org.id);
  const team = teams.find((t) => t.team.id === provider.defaultTeamId) ?? teams.find((t) => t.team.isDefault);
  await ctx.directory.addMember(org.id, user.id, provider.defaultRole, team ? [team.team.id] : [], now);
  return user;
}

async function linkOrCreate(ctx: Ctx, org: { id: number; name: string }, issuer: string, claims: IdClaims, now: number): Promise<Account> {
  const email = claims.email?.trim().toLowerCase();
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw forbidden(`${org.name}'s identity provider sent no email address for this account.`);
  }
  if (claims.email_verified !== true) {
    throw forbidden(`${org.name}'s identity provider has not verified the email address ${email}: it cannot sign in here.`);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await ctx.accounts.userByEmail(email);
    if (existing) {
      await refuseForeignAccount(ctx, org, existing);
      await ctx.sso.linkIdentity({ organizationId: org.id, issuer, subject: claims.sub, userId: existing.id }, now);
      return existing;
    }
    const name = (claims.name ?? claims.preferred_username ?? "").trim().slice(0, 100) || email.split("@")[0]!;
    const unusablePasswordHash = await hashPassword(randomBytes(32).toString("base64url"));
    const created = await ctx.sso.createSsoUser(
      { email, name, unusablePasswordHash },
      { organizationId: org.id, issuer, subject: claims.sub },
      now,
    );
    if (created) return created;
    // Another first sign-in with this email won the race: link to the account it made.
  }
  throw forbidden("This account changed while signing in; try again.");
}

async function refuseForeignAccount(ctx: Ctx, org: { id: number; name: string }, account: Account): Promise<void> {
  const others = (await ctx.sso.membershipOrgIds(account.id)).filter((id) => id !== org.id);
  if (account.is_superuser === 1 || others.length > 0) {
    throw forbidden(
      `An account with this email already exists outside ${org.name}: sign in with its password. ` +
        `${org.name}'s identity provider may only sign in its own members.`,
    );
  }
}
