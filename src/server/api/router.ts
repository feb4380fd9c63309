import { orgTarget } from "../../core/audit/targets";
import type { IncomingMessage, ServerResponse } from "node:http";
import { userForSession } from "../../core/accounts/sessions";
import type { Ctx } from "../../core/context";
import { forbidden, isTelltaleError, notFound, unauthenticated } from "../../core/errors";
import { authorize } from "../../core/permissions/authorize";
import { auditEvents, NOT_ALLOWED, permissionScope, roleAllows } from "../../core/permissions/table";
import { auditor } from "../../core/audit/record";
import type { OrgAccess } from "../../core/orgs/access";
import { scopeAllows, type Scope } from "../../core/tokens/scopes";
import { decodeIdentifier, isStorableText } from "../../core/identifiers";
import { listOrganizations } from "../../core/orgs/access";
import { updateOrganization } from "../../core/orgs/create-org";
import { listProjects, projectSurroundings } from "../../core/projects/queries";
import { userForToken } from "../../core/tokens/tokens";
import type { User } from "../../core/accounts/user";
import { SESSION_COOKIE } from "../cookies";
import { CLIENT_IP_HEADER } from "../headers";
import { log } from "../log";
import { parseCookies, readBody, sendError, sendJson } from "../http";
import { serializeOrganization, serializeProject } from "./serialize";
import { ISSUE_ROUTES } from "./issue-routes";
import { ISSUE_BULK_ROUTES } from "./issue-bulk-routes";
import { KEY_ROUTES } from "./key-routes";
import { PROJECT_ROUTES } from "./project-routes";
import { LOOKUP_ROUTES } from "./lookup-routes";
import { INVITATION_ROUTES } from "./invitation-routes";
import { TAG_ROUTES } from "./tag-routes";
import { STATS_ROUTES } from "./stats-routes";
import { MEMBER_ROUTES } from "./member-routes";
import { TEAM_ROUTES } from "./team-routes";
import { RELEASE_ROUTES } from "./release-routes";
import { SOURCEMAP_ROUTES } from "./sourcemap-routes";
import { ALERT_ROUTES } from "./alert-routes";
import { METRIC_ALERT_ROUTES } from "./metric-alert-routes";
import { AUDIT_ROUTES } from "./audit-routes";
import { ANONYMOUS_INDEX, INDEX_ROUTE } from "./index-route";
import { ORG_ISSUE_ROUTES } from "./org-issue-routes";
import { DISCOVER_ROUTES } from "./discover-routes";
import { legacyIssuePath } from "./legacy-issue-routes";
import { accountRoute, route, type AccountRoute, type ApiRoute } from "./route";
import { Created, JsonWithHeaders, NoContent, RawResponse } from "./raw";

/** The answer to an identifier no row can have: as for any that names nothing. */
const NO_SUCH_ID = "not found: the path or query names nothing that can exist";

/** The web API: a Sentry-compatible subset, JSON in and out; each route names its permission. */
export const ROUTES: ApiRoute[] = [
  route("GET", "/organizations/{}", "org:read", async ({ access }) => ({ ...serializeOrganization(access.org), role: access.role })),
  route("PUT", "/organizations/{}", "org:write", async ({ ctx, access, body, audit }) => {
    const org = await updateOrganization({ ctx, input: { org: access.org, change: body } });
    const [before, after] = [access.org, org].map((o) => ({ name: o.name, slug: o.slug }));
    await audit({ event: "org.edit", target: orgTarget(org), before, after });
    return { ...serializeOrganization(org), role: access.role };
  }),
  route("GET", "/organizations/{}/projects", "project:read", async ({ ctx, access }) => {
    const projects = await listProjects(ctx, access);
    const about = await projectSurroundings(ctx, access.org.id, projects);
    return projects.map((p) => serializeProject(p, access.org, true, about.get(p.id)));
  }),
  ...KEY_ROUTES,
  ...PROJECT_ROUTES,
  ...ISSUE_ROUTES,
  ...ORG_ISSUE_ROUTES,
  ...DISCOVER_ROUTES,
  ...ISSUE_BULK_ROUTES,
  ...LOOKUP_ROUTES,
  ...INVITATION_ROUTES,
  ...TAG_ROUTES,
  ...STATS_ROUTES,
  ...MEMBER_ROUTES,
  ...TEAM_ROUTES,
  ...RELEASE_ROUTES,
  ...SOURCEMAP_ROUTES,
  ...ALERT_ROUTES,
  ...METRIC_ALERT_ROUTES,
  ...AUDIT_ROUTES,
];

/**
 * Routes about the signed-in user, not one organization. `GET /users/me/regions/` is left
 * unrouted on purpose: sentry-cli asks it first and takes a 404 to mean "one region, this server".
 */
export const ACCOUNT_ROUTES: AccountRoute[] = [
  INDEX_ROUTE,
  accountRoute("GET", "/organizations", "account:read", async ({ ctx, user, organizationId }) =>
    (await listOrganizations(ctx, user))
      .filter(({ org }) => organizationId === null || org.id === organizationId)
      .map(({ org }) => serializeOrganization(org)),
  ),
];

/**
 * Bearer tokens for API clients, with their scopes; the session cookie too (unscoped), but
 * only for reads, so a cross-site form can never make a change with a visitor's cookie.
 * null: the request has no credentials at all (a wrong token is a 401 at once).
 */
async function authenticate(
  ctx: Ctx,
  req: IncomingMessage,
): Promise<{ user: User; scopes: ReadonlySet<Scope> | null; organizationId: number | null; tokenId: number | null } | null> {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const holder = m?.[1] ? await userForToken(ctx, m[1]) : null;
    // Unknown, revoked and expired tokens alike: nothing says which.
    if (!holder) throw unauthenticated("Invalid token");
    return holder;
  }
  if (req.method === "GET" || req.method === "HEAD") {
    const user = await userForSession(ctx, parseCookies(req.headers.cookie).get(SESSION_COOKIE));
    if (user) return { user, scopes: null, organizationId: null, tokenId: null };
  }
  return null;
}

/**
 * The one place where a route's request needs a second row of the permission table (its
 * `alsoNeeds`): the same role and token-scope checks as for the route's own row.
 */
async function alsoNeeded(
  r: ApiRoute,
  request: { user: User; params: string[]; body: unknown; access: OrgAccess; scopes: ReadonlySet<Scope> | null },
): Promise<void> {
  if (!r.alsoNeeds?.when(request)) return;
  const { permission } = r.alsoNeeds;
  if (!roleAllows(request.access.role, permission)) throw forbidden(NOT_ALLOWED);
  const scope = permissionScope(permission);
  if (scope !== null && !scopeAllows(request.scopes, scope)) throw forbidden(NOT_ALLOWED);
}

/** Handles every `/api/` path that is not ingest; always answers JSON, never a page. */
export async function handleApi(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0] ?? "/";
  try {
    if (!path.startsWith("/api/0/")) return sendJson(res, 404, { detail: "Not found" });
    const holder = await authenticate(ctx, req);
    if (!holder) {
      // Sentry's index answers without credentials too, naming no one; everything else needs them.
      if (INDEX_ROUTE.pattern.test(path) && (req.method === "GET" || req.method === "HEAD")) return sendJson(res, 200, ANONYMOUS_INDEX);
      throw unauthenticated("Authentication credentials were not provided.");
    }
    const { user, scopes, organizationId, tokenId } = holder;
    const account = ACCOUNT_ROUTES.find((r) => r.pattern.test(path));
    if (account) {
      if (req.method !== account.method && !(req.method === "HEAD" && account.method === "GET"))
        return sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` }, { allow: account.method });
      const scope = permissionScope(account.permission);
      if (scope !== null && !scopeAllows(scopes, scope)) throw forbidden(NOT_ALLOWED);
      const query = new URL(req.url ?? "/", "http://localhost").searchParams;
      if (![...query].every(([k, v]) => isStorableText(k) && isStorableText(v))) throw notFound(NO_SUCH_ID);
      return sendJson(res, 200, await account.handler({ ctx, user, query, organizationId, scopes, tokenId }));
    }
    // `/api/0/issues/{id}/…` is answered as the organization route it stands for.
    const target = (await legacyIssuePath(ctx, { method: req.method, path, user, organizationId })) ?? path;
    const matches = ROUTES.map((r) => ({ r, m: r.pattern.exec(target) })).filter((x) => x.m);
    if (matches.length === 0) return sendJson(res, 404, { detail: "Not found" });
    const hit = matches.find((x) => x.r.method === req.method || (req.method === "HEAD" && x.r.method === "GET"));
    if (!hit?.m)
      return sendJson(res, 405, { detail: `Method "${req.method}" not allowed.` }, { allow: matches.map((x) => x.r.method).join(", ") });
    // Identifiers are checked here, once for every route: one that cannot name a row (a NUL,
    // a bad escape, past any stored length) is not found, as SQLite would answer (src/core/identifiers.ts).
    const params = hit.m.slice(1).map(decodeIdentifier);
    if (!params.every((p): p is string => p !== null)) throw notFound(NO_SUCH_ID);
    const query = new URL(req.url ?? "/", "http://localhost").searchParams;
    if (![...query].every(([k, v]) => isStorableText(k) && isStorableText(v))) throw notFound(NO_SUCH_ID);
    // The permission table decides here, once for every route and before the body is read:
    // 404 outside the organization (it does not leak), 403 inside it.
    const access = await authorize(ctx, user, hit.r.permission, params[0] ?? "");
    // An organization token works in its own organization only; elsewhere it is as an outsider.
    if (organizationId !== null && access.org.id !== organizationId) throw notFound(`organization '${params[0]}' does not exist`);
    // A token may do no more than its scopes say, whatever its user's role allows.
    const scope = permissionScope(hit.r.permission);
    if (scope !== null && !scopeAllows(scopes, scope)) throw forbidden(NOT_ALLOWED);
    let body: unknown = undefined;
    if ((req.method === "PUT" || req.method === "POST") && !hit.r.stream) {
      const raw = await readBody(req, 1024 * 1024);
      if (raw === null) return sendJson(res, 413, { detail: "the request body is over 1 MiB" });
      try {
        body = raw.length ? JSON.parse(raw.toString("utf8")) : {};
      } catch {
        return sendJson(res, 400, { detail: "the request body is not valid JSON" });
      }
      const unstorable = unstorablePath(body);
      if (unstorable !== null)
        return sendJson(res, 400, { detail: `${unstorable || "the body"}: text may not hold a NUL character or an unpaired surrogate` });
    }
    await alsoNeeded(hit.r, { user, params, body, access, scopes });
    const ip = headerValue(req.headers[CLIENT_IP_HEADER]) ?? req.socket.remoteAddress ?? null;
    const events = [...auditEvents(hit.r.permission), ...(hit.r.alsoNeeds ? auditEvents(hit.r.alsoNeeds.permission) : [])];
    const audit = auditor(ctx, access.org.id, { user, tokenId, ip }, events);
    const result = await hit.r.handler({ ctx, user, access, params, query, body, req, audit });
    if (result instanceof RawResponse) return result.send(res);
    if (result instanceof NoContent) return result.send(res);
    if (result instanceof Created) return sendJson(res, 201, result.body);
    if (result instanceof JsonWithHeaders) return sendJson(res, result.status, result.body, result.headers);
    sendJson(res, 200, result);
  } catch (error) {
    if (isTelltaleError(error)) return sendError(res, error);
    log("error", "api request failed", { path, error: String(error) });
    throw error;
  }
}

/** The client address the front resolved (src/server/proxy.ts), which overwrites any the client sent. */
function headerValue(value: string | string[] | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v ? v : null;
}

/**
 * Where in a JSON body a string (or key) holds what no text column can (a NUL, an unpaired
 * surrogate): its dotted path, "" for the body itself, or null when there is none. Values are
 * refused with a 400 naming the field, never passed on for PostgreSQL to refuse with a 500.
 * A stack rather than recursion: a 1 MiB body may nest deeper than the call stack.
 */
function unstorablePath(body: unknown): string | null {
  const pending: [unknown, string][] = [[body, ""]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === "string" && !isStorableText(value)) return path;
    if (value === null || typeof value !== "object") continue;
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return at;
      pending.push([inner, at]);
    }
  }
  return null;
}
