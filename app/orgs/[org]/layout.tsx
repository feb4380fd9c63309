import type { ReactNode } from "react";
import { isTelltaleError } from "@/src/core/errors";
import { listOrganizations, type OrgAccess } from "@/src/core/orgs/access";
import { authorize } from "@/src/core/permissions/authorize";
import { listProjects } from "@/src/core/projects/queries";
import { Shell } from "../../components/shell/shell";
import { currentUser } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";

/** The organization the signed-in user may read, or null: the page below then answers (login or not found). */
async function shellAccess(slug: string): Promise<{ access: OrgAccess; orgs: OrgAccess[]; superuser: boolean } | null> {
  const user = await currentUser();
  if (!user) return null;
  try {
    const access = await authorize(ctx(), user, "org:read", slug);
    return { access, orgs: await listOrganizations(ctx(), user), superuser: user.is_superuser === 1 };
  } catch (error) {
    if (isTelltaleError(error) && (error.code === "not_found" || error.code === "forbidden")) return null;
    throw error;
  }
}

/** The application shell around every organization page, which it remembers for the pages outside it. */
export default async function OrganizationLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
  const found = await shellAccess((await params).org);
  if (!found) return children;
  const { access, orgs, superuser } = found;
  const projects = await listProjects(ctx(), access);
  return (
    <Shell access={access} orgs={orgs} projects={projects} superuser={superuser} remember>
      {children}
    </Shell>
  );
}
