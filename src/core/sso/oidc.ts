import * as client from "openid-client";
import { z } from "zod";

/**
 * The OpenID Connect relying party, over `openid-client` (https://github.com/panva/openid-client,
 * a certified implementation): discovery (OpenID Connect Discovery 1.0), the authorization code
 * flow with PKCE S256 (RFC 7636), state and nonce, and the ID token's checks (OpenID Connect
 * Core 1.0 §3.1.3.7: issuer, audience, expiry, nonce). Signatures of ID tokens are checked too,
 * against the provider's JWKS, though the token comes straight from the token endpoint: a
 * changed token is refused whatever carried it.
 */

/** Plain http is only for a provider on this machine (development, the tests); anything else must be https. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** How long Telltale waits for the provider's discovery, token and key endpoints, in seconds. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The claims Telltale reads from an ID token, bounded: the provider is trusted, its input still checked. */
export const IdClaims = z.object({
  iss: z.string().min(1).max(2048),
  sub: z.string().min(1).max(255),
  email: z.string().max(254).optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  preferred_username: z.string().optional(),
});
export type IdClaims = z.infer<typeof IdClaims>;

function options(issuer: URL) {
  return isLoopbackHttp(issuer) ? [client.allowInsecureRequests, client.enableNonRepudiationChecks] : [client.enableNonRepudiationChecks];
}

/**
 * Reads the provider's metadata from `{issuer}/.well-known/openid-configuration`; the document
 * must name exactly this issuer (discovery's own rule), and offer the code flow and a JWKS.
 * Answers the metadata as JSON, to be stored; throws a plain message for the form.
 */
export async function discoverProvider(
  issuer: string,
  clientId: string,
  clientSecret: string,
): Promise<{ issuer: string; metadata: string }> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ProviderError("The issuer must be a URL, such as https://accounts.example.com.");
  }
  if (url.protocol !== "https:" && !isLoopbackHttp(url)) throw new ProviderError("The issuer must be an https URL.");
  let config: client.Configuration;
  try {
    config = await client.discovery(url, clientId, clientSecret, undefined, { execute: options(url), timeout: PROVIDER_TIMEOUT_SECONDS });
  } catch (error) {
    // The provider's own words stay in the log: an organization owner reads only what went wrong.
    throw new ProviderError(
      error instanceof client.ClientError && /issuer/i.test(error.message)
        ? "The provider's discovery document names a different issuer: check the issuer URL."
        : "No OpenID provider answered at that issuer URL (its /.well-known/openid-configuration).",
      error,
    );
  }
  const metadata = config.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
    throw new ProviderError("The provider's discovery document lacks an authorization, token or JWKS endpoint.");
  }
  const { issuer: found, authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint, end_session_endpoint } = metadata;
  const kept = {
    issuer: found,
    authorization_endpoint,
    token_endpoint,
    jwks_uri,
    userinfo_endpoint,
    end_session_endpoint,
    token_endpoint_auth_methods_supported: metadata.token_endpoint_auth_methods_supported,
    id_token_signing_alg_values_supported: metadata.id_token_signing_alg_values_supported,
    authorization_response_iss_parameter_supported: metadata.authorization_response_iss_parameter_supported,
    code_challenge_methods_supported: metadata.code_challenge_methods_supported,
  };
  return { issuer: found, metadata: JSON.stringify(kept) };
}

/** A refusal from discovery or sign-in, with a message fit for a person; `cause` for the log. */
export class ProviderError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

// One Configuration per provider version, so its JWKS is fetched once and reused (openid-client caches it per instance).
const configs = new Map<string, client.Configuration>();

export function providerConfig(key: string, metadata: string, clientId: string, clientSecret: string): client.Configuration {
  const cacheKey = `${key}\u0000${clientId}`;
  const cached = configs.get(cacheKey);
  if (cached) return cached;
  const server = JSON.parse(metadata) as client.ServerMetadata;
  const config = new client.Configuration(server, clientId, clientSecret);
  for (const apply of options(new URL(server.issuer))) apply(config);
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (configs.size > 100) configs.clear();
  configs.set(cacheKey, config);
  return config;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationRequest(config: client.Configuration, redirectUri: string): Promise<AuthorizationRequest> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

/**
 * Checks the provider's answer at the callback (state, `iss` when the provider sends it, RFC 9207),
 * trades the code for tokens with the PKCE verifier and checks the ID token (signature, issuer,
 * audience, expiry, nonce). Answers its claims; anything wrong throws a ProviderError.
 */
export async function exchangeCode(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
): Promise<IdClaims> {
  let claims: unknown;
  try {
    const tokens = await client.authorizationCodeGrant(
      config,
      callbackUrl,
      { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true },
      { redirect_uri: checks.redirectUri },
    );
    const fromToken = tokens.claims();
    claims = fromToken;
    // Many providers put only `sub` in the ID token of the code flow and the rest at the
    // UserInfo endpoint (Core §5.4): ask it then, for the same subject (openid-client checks it).
    if (fromToken && typeof fromToken.email !== "string" && config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, fromToken.sub);
      claims = { ...info, iss: fromToken.iss, sub: fromToken.sub };
    }
  } catch (error) {
    throw new ProviderError("The identity provider's answer was refused.", error);
  }
  const parsed = IdClaims.safeParse(claims);
  if (!parsed.success) throw new ProviderError("The identity provider's ID token lacks a subject or has malformed claims.");
  return parsed.data;
}
