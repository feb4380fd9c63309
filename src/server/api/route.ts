import type { IncomingMessage } from "node:http";
import type { Ctx } from "../../core/context";
import type { Audit } from "../../core/audit/record";
import type { OrgAccess } from "../../core/orgs/access";
import { isOrgPermission, isPermission, permissionRow, type OrgPermission, type SignedInPermission } from "../../core/permissions/table";
import type { User } from "../../core/accounts/user";
import type { Scope } from "../../core/tokens/scopes";

/** What a handler gets: the organization (the path's first parameter) is already authorized. */
export interface HandlerArgs {
  ctx: Ctx;
  user: User;
  access: OrgAccess;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  /** The request itself, for a streaming route to read its body (`body` is then undefined). */
  req?: IncomingMessage;
  /** Records the change in the audit log, as this request's user, token and address (src/core/audit/record.ts). */
  audit: Audit;
}

/**
 * A second row of the table that one request of a route needs besides the route's own, when
 * `when` says so: leaving (`DELETE …/members/me/`, member:leave) versus removing someone else
 * (member:write) on one path. The router asks it, after the route's row, in `alsoNeeded` alone.
 */
export interface AlsoNeeds {
  permission: OrgPermission;
  /** Sees the request as the handler will: who asks, the path's parameters and the parsed body. */
  when: (request: { user: User; params: string[]; body: unknown }) => boolean;
}

export interface ApiRoute {
  method: string;
  /** The path as written, `{}` for a parameter; the first parameter is always the organization. */
  path: string;
  pattern: RegExp;
  permission: OrgPermission;
  alsoNeeds?: AlsoNeeds;
  handler: (args: HandlerArgs) => Promise<unknown>;
  /** The handler reads the body itself (a multipart upload), within its own limits. */
  stream?: boolean;
}

const SEGMENT = "([^/]+)";

/**
 * The only way to declare a web API route: it names the permission-table row the router
 * asks before calling the handler (test/integration/permissions-static.test.ts checks it).
 */
export function route(
  method: string,
  path: string,
  permission: OrgPermission,
  handler: ApiRoute["handler"],
  alsoNeeds?: AlsoNeeds,
): ApiRoute {
  // The type already says so; this catches a cast or a plain-JS caller at start-up.
  for (const p of [permission, ...(alsoNeeds ? [alsoNeeds.permission] : [])])
    if (!isOrgPermission(p)) throw new Error(`route ${method} ${path}: '${String(p)}' is not an organization permission`);
  if (!["/organizations/{}", "/projects/{}", "/teams/{}"].some((prefix) => path.startsWith(prefix))) {
    throw new Error(`route ${method} ${path}: the organization must be the first parameter`);
  }
  return {
    method,
    path,
    pattern: new RegExp(`^/api/0${path.replaceAll("{}", SEGMENT)}/?$`),
    permission,
    ...(alsoNeeds ? { alsoNeeds } : {}),
    handler,
  };
}

/** A route whose handler reads the request body as a stream (chunk uploads), after the same permission check. */
export function streamRoute(method: string, path: string, permission: OrgPermission, handler: ApiRoute["handler"]): ApiRoute {
  return { ...route(method, path, permission, handler), stream: true };
}

/** What an account route's handler gets: the signed-in user, no organization. */
export interface AccountHandlerArgs {
  ctx: Ctx;
  user: User;
  query: URLSearchParams;
  /** An organization token's organization, which bounds what the route may show; null otherwise. */
  organizationId: number | null;
  /** The bearer token's scopes (null: every scope the role allows); null with a session too. */
  scopes: ReadonlySet<Scope> | null;
  /** The bearer token's id; null for a session, which is no token. */
  tokenId: number | null;
}

export interface AccountRoute {
  method: string;
  path: string;
  pattern: RegExp;
  permission: SignedInPermission;
  handler: (args: AccountHandlerArgs) => Promise<unknown>;
}

/**
 * A web API route about the signed-in user rather than one organization (`GET /organizations/`):
 * it names a signed-in row of the permission table, whose token scope the router checks.
 */
export function accountRoute(method: string, path: string, permission: SignedInPermission, handler: AccountRoute["handler"]): AccountRoute {
  if (!isPermission(permission) || permissionRow(permission).audience !== "signed-in") {
    throw new Error(`route ${method} ${path}: '${String(permission)}' is not a signed-in permission`);
  }
  return { method, path, pattern: new RegExp(`^/api/0${path.replaceAll("{}", SEGMENT)}/?$`), permission, handler };
}
