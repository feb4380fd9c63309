import { notFound, redirect } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import type { OrgAccess } from "@/src/core/orgs/access";
import { authorize } from "@/src/core/permissions/authorize";
import { requireSuperuser } from "@/src/core/permissions/superuser";
import type { OrgPermission, SignedInPermission, SuperuserPermission } from "@/src/core/permissions/table";
import { projectInOrg } from "@/src/core/projects/queries";
import type { Project } from "@/src/core/projects/project";
import type { User } from "@/src/core/accounts/user";
import { requireUser } from "./auth";
import { ctx } from "./app-runtime";

/**
 * The page guards: every page.tsx starts with one of these (or is listed as public in
 * test/integration/permissions-static.test.ts). A missing organization or project and a
 * refusal by the permission table both render the not-found page, never a 500, and do not
 * tell an outsider what exists.
 */
async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isTelltaleError(error) && (error.code === "not_found" || error.code === "forbidden")) notFound();
    throw error;
  }
}

/** A page any signed-in user may see; others go to the login page and come back. */
export async function loadUser(permission: SignedInPermission, returnTo: string): Promise<User> {
  // Every signed-in row allows every user today; the name is what the static test reads.
  void permission;
  return requireUser(returnTo);
}

/** A page for superusers (server administration); everyone else gets the not-found page. */
export async function loadSuperuser(permission: SuperuserPermission, returnTo: string): Promise<User> {
  const user = await requireUser(returnTo);
  return orNotFound(Promise.resolve().then(() => requireSuperuser(user, permission)));
}

export async function loadOrg(permission: OrgPermission, slug: string, returnTo: string): Promise<{ user: User } & OrgAccess> {
  const user = await requireUser(returnTo);
  return { user, ...(await orNotFound(authorize(ctx(), user, permission, slug).catch(toEnrolment(returnTo)))) };
}

/** A member refused for want of two-factor sign-in (the organization requires it) is sent to set it up, then back. */
function toEnrolment(returnTo: string) {
  return (error: unknown): never => {
    if (isTelltaleError(error) && error.details.twoFactorRequired) redirect(`/account/two-factor?next=${encodeURIComponent(returnTo)}`);
    throw error;
  };
}

export async function loadProject(
  permission: OrgPermission,
  orgSlug: string,
  projectSlug: string,
  returnTo: string,
): Promise<{ user: User; project: Project } & OrgAccess> {
  const access = await loadOrg(permission, orgSlug, returnTo);
  const project = await orNotFound(projectInOrg(ctx(), access, projectSlug));
  return { ...access, project };
}
