import type { User } from "../accounts/user";
import type { Ctx } from "../context";
import { forbidden } from "../errors";
import { organizationFor, type OrgAccess } from "../orgs/access";
import { assertTwoFactorIfRequired } from "../twofactor/require";
import { NOT_ALLOWED, roleAllows, type OrgPermission } from "./table";

/**
 * The one check every organization-scoped page, action and route makes. An organization the
 * user cannot see stays a 404 (its existence does not leak); one they belong to with a role
 * the table does not allow is a 403 "not allowed".
 */
export async function authorize(ctx: Ctx, user: User, permission: OrgPermission, orgSlug: string): Promise<OrgAccess> {
  const access = await organizationFor(ctx, user, orgSlug);
  // A member of an organization that requires two-factor sign-in does nothing there without it.
  await assertTwoFactorIfRequired(ctx, user, access);
  if (!roleAllows(access.role, permission)) throw forbidden(NOT_ALLOWED);
  return access;
}
