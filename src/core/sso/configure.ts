import type { Ctx } from "../context";
import { invalidInput, notFound } from "../errors";
import type { OrgAccess } from "../orgs/access";
import type { Role } from "../orgs/roles";
import { validate } from "../validate";
import { discoverProvider, ProviderError } from "./oidc";
import { SsoProviderInput } from "./schemas";

/**
 * The organization's OpenID provider: each mutation is one function here, so that an audit
 * entry can be added per action . Owners only (permission `sso:write`).
 */

export const NO_SECRET_KEY =
  "Single sign-on needs TELLTALE_SECRET_KEY, the key that encrypts the client secret: ask whoever runs this server to set it (README, Settings).";

/** What the settings page shows: never the secret, only whether one is stored and readable. */
export interface SsoSettingsView {
  issuer: string;
  clientId: string;
  secretReadable: boolean;
  defaultRole: Role;
  defaultTeamSlug: string | null;
  requireSso: boolean;
  endpoints: { authorization: string; token: string; jwks: string; endSession: string | null };
  updatedAt: number;
}

export function redirectUri(ctx: Ctx, orgSlug: string): string {
  return `${ctx.publicUrl}/sso/${encodeURIComponent(orgSlug)}/callback`;
}

export async function ssoSettings(ctx: Ctx, access: OrgAccess): Promise<SsoSettingsView | null> {
  const provider = await ctx.sso.provider(access.org.id);
  if (!provider) return null;
  const meta = JSON.parse(provider.metadata) as Record<string, string | undefined>;
  const teams = provider.defaultTeamId === null ? [] : await ctx.directory.teams(access.org.id);
  return {
    issuer: provider.issuer,
    clientId: provider.clientId,
    secretReadable: ctx.secrets.sealing && ctx.secrets.tryOpen(provider.clientSecret, "sso-client-secret") !== null,
    defaultRole: provider.defaultRole,
    defaultTeamSlug: teams.find((t) => t.team.id === provider.defaultTeamId)?.team.slug ?? null,
    requireSso: provider.requireSso,
    endpoints: {
      authorization: meta.authorization_endpoint ?? "",
      token: meta.token_endpoint ?? "",
      jwks: meta.jwks_uri ?? "",
      endSession: meta.end_session_endpoint ?? null,
    },
    updatedAt: provider.updatedAt,
  };
}

/**
 * Saves the provider after discovering it: the issuer must answer its discovery document and
 * name itself exactly, so a typo or a wrong issuer is refused here, not at the first sign-in.
 */
export async function saveSsoProvider({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { access: OrgAccess; provider: Record<keyof SsoProviderInput, string> };
}): Promise<void> {
  if (!ctx.secrets.sealing) throw invalidInput(NO_SECRET_KEY);
  const form = validate(SsoProviderInput, input.provider);
  const orgId = input.access.org.id;
  const existing = await ctx.sso.provider(orgId);
  const kept = existing && existing.clientId === form.clientId ? ctx.secrets.tryOpen(existing.clientSecret, "sso-client-secret") : null;
  const clientSecret = form.clientSecret || kept;
  if (!clientSecret) throw invalidInput("enter the client secret", { clientSecret: "enter the client secret the provider gave" });

  const teams = await ctx.directory.teams(orgId);
  const team = form.defaultTeam ? teams.find((t) => t.team.slug === form.defaultTeam) : teams.find((t) => t.team.isDefault);
  if (!team) throw invalidInput("no such team", { defaultTeam: "choose one of the organization's teams" });
  const teamId = team.team.id;

  let discovered: { issuer: string; metadata: string };
  try {
    discovered = await discoverProvider(form.issuer, form.clientId, clientSecret);
  } catch (error) {
    if (error instanceof ProviderError) throw invalidInput(error.message, { issuer: error.message });
    throw error;
  }
  await ctx.sso.putProvider(
    {
      organizationId: orgId,
      issuer: discovered.issuer,
      clientId: form.clientId,
      clientSecret: ctx.secrets.seal(clientSecret, "sso-client-secret"),
      metadata: discovered.metadata,
      defaultRole: form.defaultRole,
      defaultTeamId: teamId,
    },
    ctx.now(),
  );
}

/** Switches "require SSO": members other than owners may then no longer sign in with a password. */
export async function setSsoRequired({ ctx, input }: { ctx: Ctx; input: { access: OrgAccess; required: boolean } }): Promise<void> {
  if (!(await ctx.sso.setRequireSso(input.access.org.id, input.required, ctx.now()))) {
    throw notFound("Set up the identity provider first.");
  }
}

/** Removes the provider and every link of its identities; members keep their memberships. */
export async function removeSsoProvider({ ctx, input }: { ctx: Ctx; input: { access: OrgAccess } }): Promise<void> {
  if (!(await ctx.sso.deleteProvider(input.access.org.id))) throw notFound("This organization has no identity provider.");
}
