import type { User } from "../../core/accounts/user";
import type { Ctx } from "../../core/context";
import { isTelltaleError, notFound } from "../../core/errors";
import { decodeIdentifier, rowIdOf } from "../../core/identifiers";
import { issueOrganizationSlug } from "../../core/issues/queries";
import { authorize } from "../../core/permissions/authorize";
import type { OrgPermission } from "../../core/permissions/table";

/** A path older scripts use for an issue without its organization, and the organization route that answers it. */
export interface LegacyIssueRoute {
  method: "GET";
  /** As written, `{}` for the issue id. */
  path: string;
  /** The row of the permission table the issue's organization must grant, as its organization route's. */
  permission: OrgPermission;
}

/** `/api/0/issues/{id}/…`: the issue, its events, its latest and oldest event. */
export const LEGACY_ISSUE_ROUTES: readonly LegacyIssueRoute[] = ["", "/events", "/events/latest", "/events/oldest"].map((tail) => ({
  method: "GET",
  path: `/issues/{}${tail}`,
  permission: "issue:read",
}));

const LEGACY = /^\/api\/0\/issues\/([^/]+)(\/events(?:\/latest|\/oldest)?)?\/?$/;

/**
 * The organization path (`/api/0/organizations/{org}/issues/{id}/…`) a legacy issue path stands
 * for, which the router then answers and authorizes like any other; null when `path` is not
 * one. An issue no row holds, or in an organization the caller may not read (an organization
 * token's other organizations included), is not found, with nothing that names the organization.
 */
export async function legacyIssuePath(
  ctx: Ctx,
  request: { method: string | undefined; path: string; user: User; organizationId: number | null },
): Promise<string | null> {
  const m = LEGACY.exec(request.path);
  if (!m?.[1] || (request.method !== "GET" && request.method !== "HEAD")) return null;
  const tail = m[2] ?? "";
  const route = LEGACY_ISSUE_ROUTES.find((r) => r.path === `/issues/{}${tail}`);
  const ref = decodeIdentifier(m[1]);
  const missing = notFound(`issue ${ref ?? ""} does not exist`);
  const id = ref === null ? null : rowIdOf(ref);
  const slug = id === null ? null : await issueOrganizationSlug(ctx, id);
  if (!route || id === null || slug === null) throw missing;
  try {
    const access = await authorize(ctx, request.user, route.permission, slug);
    if (request.organizationId !== null && access.org.id !== request.organizationId) throw missing;
  } catch (error) {
    throw isTelltaleError(error) && error.code === "not_found" ? missing : error;
  }
  return `/api/0/organizations/${encodeURIComponent(slug)}/issues/${id}${tail}/`;
}
