import type { User } from "../../core/accounts/user";
import { SCOPES } from "../../core/tokens/scopes";
import { accountRoute, type AccountRoute } from "./route";

/**
 * A user as Sentry's user serializer names them, in the part a client reads: `sentry-cli info`
 * prints `email` and requires `id` as a string (src/api/mod.rs in its source).
 */
function serializeUser(user: User) {
  return {
    id: String(user.id),
    name: user.name || user.email,
    username: user.email,
    email: user.email,
    isActive: true,
    isSuperuser: user.is_superuser === 1,
    dateJoined: new Date(user.created_at).toISOString(),
  };
}

/** What `GET /api/0/` answers a request without credentials: as Sentry, a 200 that names no one. */
export const ANONYMOUS_INDEX = { version: "0", auth: null, user: null } as const;

/**
 * Sentry's API index, `GET /api/0/`, which `sentry-cli info` asks to check its token: who the
 * request speaks for and, for a token, its scopes. An organization token speaks for its
 * organization, not a person, so `user` is null, as Sentry answers for one; a session is no
 * token, so `auth` is null. A token made without scopes lists every scope: it is bounded by its
 * user's role alone. Wrong, revoked or expired tokens get the router's 401, as in Sentry.
 */
export const INDEX_ROUTE: AccountRoute = accountRoute("GET", "", "account:whoami", async ({ user, organizationId, scopes, tokenId }) => ({
  version: "0",
  auth: tokenId === null ? null : { scopes: scopes === null ? [...SCOPES] : SCOPES.filter((s) => scopes.has(s)) },
  user: organizationId === null ? serializeUser(user) : null,
}));
