import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { listOrganizations } from "@/src/core/orgs/access";
import { listProjects } from "@/src/core/projects/queries";
import { currentUser } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";
import { LAST_ORG_COOKIE, pickShellOrg } from "./last-org";
import { Shell } from "./shell";

/**
 * The shell around a signed-in person's pages that belong to no organization (/account,
 * /admin/users, /orgs): the same sidebar, about the organization they last had open. Signed out,
 * the page alone renders (it sends the person to sign in).
 */
export async function PersonalShell({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) return children;
  const orgs = await listOrganizations(ctx(), user);
  const access = pickShellOrg(orgs, (await cookies()).get(LAST_ORG_COOKIE)?.value);
  const projects = access ? await listProjects(ctx(), access) : [];
  return (
    <Shell access={access} orgs={orgs} projects={projects} superuser={user.is_superuser === 1}>
      {children}
    </Shell>
  );
}
