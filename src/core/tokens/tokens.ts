import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { Email } from "../accounts/schemas";
import type { User } from "../accounts/user";
import { auditor } from "../audit/record";
import type { Ctx } from "../context";
import { forbidden, notFound } from "../errors";
import { organizationFor } from "../orgs/access";
import { auditEvents, NOT_ALLOWED, roleAllows } from "../permissions/table";
import type { StoredToken, TokenOwner } from "../ports/tokens";
import { validate } from "../validate";
import { formatScopes, parseScopes, SCOPES, type Scope } from "./scopes";

/**
 * Sentry's personal token shape, `sntryu_` and 32 bytes in hex: sentry-cli recognises it as a
 * user token (src/utils/auth_token in its source) and so redacts it from what it logs.
 */
const PREFIX = "sntryu_";
/** Telltale's earlier personal tokens, `tlt_` and 32 bytes in hex: those already handed out keep working. */
const LEGACY_PREFIX = "tlt_";
/** How much of a personal token is kept to show it later: the prefix and six hex characters. */
const SHOWN_CHARS = PREFIX.length + 6;
/** Sentry's organization token prefix: sentry-cli reads the URL and organization from such a token. */
const ORG_PREFIX = "sntrys_";
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const DAY_MS = 86_400_000;

/** What a new token may say of itself: a name, scopes (none given: every scope the role allows), an expiry. */
export const TokenSpec = z.object({
  name: z.string().trim().min(1, "Give the token a name").max(100).default("CLI token"),
  scopes: z.array(z.enum(SCOPES)).min(1, "Choose at least one scope").optional(),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type TokenSpec = z.input<typeof TokenSpec>;

export const NewToken = TokenSpec.extend({ user: Email });

/** A token as its owner sees it later: never the token itself, only its first characters. */
export interface TokenInfo {
  id: number;
  name: string;
  prefix: string;
  /** null: every scope the user's role allows (tokens made before scopes, or without `--scopes`). */
  scopes: Scope[] | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** Creates a token for a user. The token itself is returned once and only its hash is stored. */
export async function issueToken(ctx: Ctx, userId: number, spec: TokenSpec): Promise<{ id: number; token: string }> {
  const data = validate(TokenSpec, spec);
  const token = PREFIX + randomBytes(32).toString("hex");
  const now = ctx.now();
  const id = await ctx.tokens.add({
    userId,
    organizationId: null,
    name: data.name,
    hash: hashToken(token),
    prefix: token.slice(0, SHOWN_CHARS),
    createdAt: now,
    scopes: data.scopes ? formatScopes(data.scopes) : null,
    expiresAt: data.expiresInDays === undefined ? null : now + data.expiresInDays * DAY_MS,
  });
  return { id, token };
}

/** The user with this email (the CLI names users by email). */
async function userByEmail(ctx: Ctx, email: string): Promise<User> {
  const address = validate(Email, email);
  const user = await ctx.accounts.userByEmail(address);
  if (!user) throw notFound(`user '${address}' does not exist`);
  return user;
}

export async function userIdByEmail(ctx: Ctx, email: string): Promise<number> {
  return (await userByEmail(ctx, email)).id;
}

/** Creates an API token for the user with this email (the CLI). */
export async function createToken({ ctx, input }: { ctx: Ctx; input: z.input<typeof NewToken> }): Promise<{ id: number; token: string }> {
  const { user: email, ...spec } = validate(NewToken, input);
  return issueToken(ctx, await userIdByEmail(ctx, email), spec);
}

/** A user's tokens, newest first, revoked ones included (they stay listed as revoked). */
export async function listTokens(ctx: Ctx, userId: number): Promise<TokenInfo[]> {
  return (await ctx.tokens.personal(userId)).map(tokenInfo);
}

function tokenInfo({ id, name, prefix, scopes, createdAt, lastUsedAt, expiresAt, revokedAt }: StoredToken): TokenInfo {
  const parsed = parseScopes(scopes);
  return { id, name, prefix, scopes: parsed === null ? null : [...parsed], createdAt, lastUsedAt, expiresAt, revokedAt };
}

/**
 * Revokes a token at once if `owner` holds it — a user their personal tokens, an organization
 * its tokens; any other token is "not found". Revoking twice keeps the first time.
 */
async function revokeOwned(ctx: Ctx, tokenId: number, owner: TokenOwner): Promise<void> {
  if (!(await ctx.tokens.revoke(tokenId, owner, ctx.now()))) throw notFound("token not found");
}

/** Revokes one of the user's personal tokens. */
export function revokeToken(ctx: Ctx, userId: number, tokenId: number): Promise<void> {
  return revokeOwned(ctx, tokenId, { userId });
}

/**
 * What an organization token may do unless told otherwise: Telltale's equivalent of Sentry's
 * `org:ci` — read the organization and its projects, and make releases and upload their files.
 */
export const ORG_TOKEN_SCOPES: readonly Scope[] = ["org:read", "project:read", "project:releases"];

/**
 * Creates an organization token in Sentry's format, `sntrys_<payload>_<secret>`: the payload is
 * base64 JSON naming this server's URL and the organization, so sentry-cli needs neither `--url`
 * nor `--org`; the secret is 32 random bytes. It works in that organization only, with its
 * creator's membership and at most its scopes. Shown once; only its hash is stored.
 */
export async function issueOrgToken(
  ctx: Ctx,
  creatorId: number,
  org: { id: number; slug: string },
  spec: { name: string; scopes?: Scope[] },
): Promise<{ id: number; token: string }> {
  const data = validate(TokenSpec, { name: spec.name, ...(spec.scopes ? { scopes: spec.scopes } : {}) });
  const now = ctx.now();
  const payload = { iat: now / 1000, url: ctx.publicUrl, region_url: ctx.publicUrl, org: org.slug };
  // Standard base64 never contains `_`, the token's separator; the secret goes without padding, as sentry-cli reads it.
  const secret = randomBytes(32).toString("base64").replace(/=+$/, "");
  const token = `${ORG_PREFIX}${Buffer.from(JSON.stringify(payload)).toString("base64")}_${secret}`;
  const id = await ctx.tokens.add({
    userId: creatorId,
    organizationId: org.id,
    name: data.name,
    hash: hashToken(token),
    prefix: `${ORG_PREFIX}…${secret.slice(-4)}`,
    createdAt: now,
    scopes: formatScopes(data.scopes ?? ORG_TOKEN_SCOPES),
    expiresAt: null,
  });
  return { id, token };
}

/** An organization token made by the user with this email (the CLI), who must be an owner or admin there. */
export async function createOrgToken({
  ctx,
  input,
}: {
  ctx: Ctx;
  input: { user: string; org: string; name?: string | undefined; scopes?: Scope[] | undefined };
}): Promise<{ id: number; token: string }> {
  const user = await userByEmail(ctx, input.user);
  const access = await organizationFor(ctx, user, input.org);
  if (!roleAllows(access.role, "org-token:write")) throw forbidden(NOT_ALLOWED);
  const name = input.name ?? "CI token";
  const issued = await issueOrgToken(ctx, user.id, access.org, { name, ...(input.scopes ? { scopes: input.scopes } : {}) });
  // From the command line: the user it names is the actor, with no client address.
  const audit = auditor(ctx, access.org.id, { user, tokenId: null, ip: null }, auditEvents("org-token:write"));
  await audit({ event: "orgauthtoken.create", target: { type: "orgauthtoken", id: issued.id, label: name } });
  return issued;
}

/** An organization's tokens, newest first, with who made each. */
export async function listOrgTokens(ctx: Ctx, organizationId: number): Promise<(TokenInfo & { createdBy: string })[]> {
  return (await ctx.tokens.ofOrganization(organizationId)).map((t) => ({ ...tokenInfo(t), createdBy: t.createdBy }));
}

/** Revokes one of the organization's tokens. */
export function revokeOrgToken(ctx: Ctx, organizationId: number, tokenId: number): Promise<void> {
  return revokeOwned(ctx, tokenId, { organizationId });
}

/** Who a bearer token speaks for and what it may do; null for an unknown, revoked or expired token. */
export interface TokenHolder {
  user: User;
  /** null: every scope the user's role allows. */
  scopes: ReadonlySet<Scope> | null;
  /** An organization token's organization: it works there only. null for a personal token. */
  organizationId: number | null;
  /** The token's id, for the audit log's actor. */
  tokenId: number;
}

/** The user an `Authorization: Bearer` token belongs to and its scopes, or null. */
export async function userForToken(ctx: Ctx, token: string): Promise<TokenHolder | null> {
  if (![PREFIX, LEGACY_PREFIX, ORG_PREFIX].some((p) => token.startsWith(p)) || token.length > 400) return null;
  const found = await ctx.tokens.byHash(hashToken(token));
  if (!found) return null;
  const { token: held, user } = found;
  const now = ctx.now();
  if (held.revokedAt !== null || (held.expiresAt !== null && held.expiresAt <= now)) return null;
  // Record use at most once a minute: a busy API client must not turn every read into a write.
  if (held.lastUsedAt === null || now - held.lastUsedAt > 60_000) await ctx.tokens.markUsed(held.id, now);
  return { user, scopes: parseScopes(held.scopes), organizationId: held.organizationId, tokenId: held.id };
}
