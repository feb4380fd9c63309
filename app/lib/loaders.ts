import { notFound } from "next/navigation";
import { isTelltaleError } from "@/src/core/errors";
import { organizationFor, type OrgAccess } from "@/src/core/orgs/access";
import { projectInOrg } from "@/src/core/projects/queries";
import type { Project, User } from "@/src/db/schema";
import { requireUser } from "./auth";
import { ctx } from "./runtime";

/** A core "not found" becomes the not-found page; anything else is a real error. */
async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isTelltaleError(error) && error.code === "not_found") notFound();
    throw error;
  }
}

export async function loadOrg(slug: string, returnTo: string): Promise<{ user: User } & OrgAccess> {
  const user = await requireUser(returnTo);
  return { user, ...(await orNotFound(organizationFor(ctx(), user, slug))) };
}

export async function loadProject(orgSlug: string, projectSlug: string, returnTo: string): Promise<{ user: User; project: Project } & OrgAccess> {
  const access = await loadOrg(orgSlug, returnTo);
  const project = await orNotFound(projectInOrg(ctx(), access.org, projectSlug));
  return { ...access, project };
}
