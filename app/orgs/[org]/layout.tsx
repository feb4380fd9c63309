import type { ReactNode } from "react";
import { Suspense } from "react";
import { isTelltaleError } from "@/src/core/errors";
import { listOrganizations, type OrgAccess } from "@/src/core/orgs/access";
import { authorize } from "@/src/core/permissions/authorize";
import { listProjects } from "@/src/core/projects/queries";
import { Palette } from "../../components/palette/palette";
import { Sidebar } from "../../components/shell/sidebar";
import "../../components/shell/shell.css";
import { currentUser } from "../../lib/auth";
import { ctx } from "../../lib/app-runtime";

const TOGGLE_ID = "shell-nav";

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

/**
 * The application shell around every organization page: a sidebar beside the page, collapsed into
 * a drawer on narrow screens. Opening and collapsing is a checkbox and CSS (no script, so the
 * strict CSP needs no exception): https://developer.mozilla.org/en-US/docs/Web/CSS/:checked
 */
export default async function OrganizationLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
  const found = await shellAccess((await params).org);
  if (!found) return children;
  const { access, orgs, superuser } = found;
  const projects = await listProjects(ctx(), access);
  return (
    <div className="shell">
      <input type="checkbox" id={TOGGLE_ID} className="shell-toggle-input" aria-label="Show navigation" />
      <label htmlFor={TOGGLE_ID} className="shell-toggle" data-testid="sidebar-toggle">
        <span aria-hidden="true">☰</span> Menu
      </label>
      <label htmlFor={TOGGLE_ID} className="shell-backdrop" aria-hidden="true" />
      {/* useSearchParams needs a Suspense boundary: https://nextjs.org/docs/app/api-reference/functions/use-search-params */}
      <Suspense fallback={<aside className="shell-sidebar" />}>
        <Sidebar
          org={{ slug: access.org.slug, name: access.org.name }}
          role={access.role}
          orgs={orgs.map(({ org }) => ({ slug: org.slug, name: org.name }))}
          projects={projects.map((p) => ({ slug: p.slug, name: p.name }))}
          toggleId={TOGGLE_ID}
          superuser={superuser}
        />
      </Suspense>
      <div className="shell-main">{children}</div>
      <Palette org={access.org.slug} />
    </div>
  );
}
