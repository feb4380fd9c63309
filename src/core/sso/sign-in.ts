import { z } from "zod";
import { openSession, type LoginResult } from "../accounts/login";
import { auditForUser } from "../audit/record";
import type { Ctx } from "../context";
import { invalidInput, notFound, unauthenticated } from "../errors";
import { redirectUri, NO_SECRET_KEY } from "./configure";
import { authorizationRequest, exchangeCode, providerConfig } from "./oidc";
import { provisionSsoUser } from "./provision";

/** The browser has this long between leaving for the provider and coming back. */
export const SSO_SIGN_IN_MS = 10 * 60_000;

/**
 * What the browser carries between the two legs of a sign-in, sealed (AES-256-GCM) in an
 * HttpOnly cookie: the state and nonce to expect and the PKCE verifier. The state is bound
 * to this browser by the cookie, so a callback URL handed to someone else signs nobody in.
 */
const Pending = z.object({
  org: z.string().max(64),
  state: z.string().max(128),
  nonce: z.string().max(128),
  codeVerifier: z.string().max(128),
  next: z.string().max(2048),
  expiresAt: z.number(),
});

async function orgProvider(ctx: Ctx, slug: string) {
  const found = await ctx.sso.providerBySlug(slug.trim().toLowerCase().slice(0, 64));
  if (!found) throw notFound("No organization with that slug signs in with single sign-on.");
  if (!ctx.secrets.sealing) throw invalidInput(NO_SECRET_KEY);
  const clientSecret = ctx.secrets.tryOpen(found.provider.clientSecret, "sso-client-secret");
  if (clientSecret === null)
    throw invalidInput(`${found.org.name}'s single sign-on must be set up again: its client secret cannot be read.`);
  const config = providerConfig(
    `${found.org.id}:${found.provider.updatedAt}`,
    found.provider.metadata,
    found.provider.clientId,
    clientSecret,
  );
  return { ...found, config };
}

/** The first leg: where to send the browser, and the sealed cookie to set on it. */
export async function beginSsoSignIn({ ctx, input }: { ctx: Ctx; input: { org: string; next: string } }): Promise<{
  location: string;
  cookie: string;
  expiresAt: number;
}> {
  const { org, config } = await orgProvider(ctx, input.org);
  const request = await authorizationRequest(config, redirectUri(ctx, org.slug));
  const expiresAt = ctx.now() + SSO_SIGN_IN_MS;
  const pending: z.infer<typeof Pending> = {
    org: org.slug,
    state: request.state,
    nonce: request.nonce,
    codeVerifier: request.codeVerifier,
    next: input.next,
    expiresAt,
  };
  return { location: request.url, cookie: ctx.secrets.seal(JSON.stringify(pending), "sso-sign-in"), expiresAt };
}

export const SSO_REFUSED = "Single sign-on did not complete. Try again.";

/**
 * The second leg, at `/sso/{org}/callback`: the cookie must be this browser's, for this
 * organization and not expired; the provider's answer and ID token must pass every check
 * (./oidc.ts). Opens a session for the account the token names (./provision.ts).
 */
export async function completeSsoSignIn({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { org: string; callbackUrl: URL; cookie: string | undefined; ip: string; userAgent: string };
}): Promise<LoginResult & { next: string }> {
  const sealed = input.cookie ? ctx.secrets.tryOpen(input.cookie, "sso-sign-in") : null;
  const pending = sealed ? Pending.safeParse(safeJson(sealed)) : null;
  if (!pending?.success || pending.data.org !== input.org || pending.data.expiresAt < ctx.now()) throw unauthenticated(SSO_REFUSED);
  const { org, provider, config } = await orgProvider(ctx, input.org);
  const providerError = input.callbackUrl.searchParams.get("error");
  if (providerError) throw unauthenticated(`${org.name}'s identity provider refused the sign-in.`);
  // A refused answer throws a ProviderError: its message is for the person, its cause for the log.
  const claims = await exchangeCode(config, input.callbackUrl, { ...pending.data, redirectUri: redirectUri(ctx, org.slug) });
  const user = await provisionSsoUser(ctx, org, provider, claims);
  const session = await openSession(ctx, user, input.ip, input.userAgent);
  // Signed in: in the audit log of each organization of the account, as a password sign-in is.
  await auditForUser(
    ctx,
    user.id,
    { user, tokenId: null, ip: input.ip },
    { event: "user.login", target: { type: "user", id: user.id, label: user.email }, after: { method: "SSO", organization: org.slug } },
  );
  return { ...session, next: pending.data.next };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The organization a "Sign in with … SSO" button names, when it has a provider. */
export async function ssoSignInTarget(ctx: Ctx, slug: string): Promise<{ slug: string; name: string } | null> {
  const found = await ctx.sso.providerBySlug(slug.trim().toLowerCase().slice(0, 64));
  return found ? { slug: found.org.slug, name: found.org.name } : null;
}
