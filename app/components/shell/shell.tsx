import type { ReactNode } from "react";
import { Suspense } from "react";
import type { OrgAccess } from "@/src/core/orgs/access";
import { roleRank } from "@/src/core/orgs/roles";
import type { Project } from "@/src/core/projects/project";
import { Palette } from "../palette/palette";
import { StorageFullBanner } from "../storage-full-banner";
import { RememberOrg } from "./remember-org";
import { Sidebar } from "./sidebar";
import "./shell.css";

const TOGGLE_ID = "shell-nav";

export interface ShellProps {
  /** The organization the sidebar is about, or null for someone who belongs to none. */
  access: OrgAccess | null;
  orgs: readonly OrgAccess[];
  projects: readonly Pick<Project, "slug" | "name">[];
  superuser: boolean;
  /** Set on an organization's own pages: the organization becomes the one remembered for the others. */
  remember?: boolean;
  children: ReactNode;
}

/**
 * The application shell: a sidebar beside the page, collapsed into a drawer on narrow screens.
 * One frame for the organization's pages (app/orgs/[org]/layout.tsx) and the person's own
 * (./personal-shell.tsx). Opening and collapsing is a checkbox and CSS (no script, so the strict
 * CSP needs no exception): https://developer.mozilla.org/en-US/docs/Web/CSS/:checked
 */
export function Shell({ access, orgs, projects, superuser, remember = false, children }: ShellProps) {
  const org = access ? { slug: access.org.slug, name: access.org.name } : null;
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
          org={org}
          role={access?.role ?? null}
          orgs={orgs.map(({ org: o }) => ({ slug: o.slug, name: o.name }))}
          projects={projects.map((p) => ({ slug: p.slug, name: p.name }))}
          toggleId={TOGGLE_ID}
          superuser={superuser}
        />
      </Suspense>
      <div className="shell-main">
        {(superuser || (access !== null && roleRank(access.role) >= roleRank("admin"))) && <StorageFullBanner className="shell-banner" />}
        {children}
      </div>
      {org && <Palette org={org.slug} />}
      {org && remember && <RememberOrg slug={org.slug} />}
    </div>
  );
}
