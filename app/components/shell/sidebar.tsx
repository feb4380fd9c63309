"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { Fragment, useEffect } from "react";
import type { Role } from "@/src/core/orgs/roles";
import { PaletteButton } from "../palette/palette";
import { useCurrentProject } from "./current-project";
import { accountSections, projectInUrl, shownSections, switchProjectHref } from "./sections";

export interface SidebarProps {
  /** The organization shown; null for someone who belongs to none (then only their own entries). */
  org: { slug: string; name: string } | null;
  role: Role | null;
  orgs: { slug: string; name: string }[];
  projects: { slug: string; name: string }[];
  /** The id of the checkbox (in the layout) that opens the drawer on narrow screens. */
  toggleId: string;
  /** Shows the Users entry (server administration). */
  superuser?: boolean;
}

/**
 * The organization's navigation. A client component only because the layout above it does not
 * re-render on navigation: the current page and project come from the URL here. The switchers are
 * <details> lists of links, so they work before hydration and under the nonce-only CSP.
 */
export function Sidebar({ org, role, orgs, projects, toggleId, superuser = false }: SidebarProps) {
  const pathname = usePathname();
  const search = useSearchParams();
  const named = useCurrentProject();
  const projectSlug = projectInUrl(pathname, search.get("project")) ?? named;
  const project = projects.find((p) => p.slug === projectSlug) ?? null;
  const sections = org && role ? shownSections({ org: org.slug, project: project?.slug ?? null, role }, pathname) : [];
  const own = accountSections(superuser, pathname);

  // The drawer closes once a link in it has been followed (the checkbox otherwise survives navigation).
  useEffect(() => {
    const toggle = document.getElementById(toggleId);
    if (toggle instanceof HTMLInputElement && window.matchMedia("(max-width: 900px)").matches) toggle.checked = false;
  }, [pathname, search, toggleId]);

  return (
    <aside className="shell-sidebar" aria-label="Navigation" data-testid="sidebar">
      {org && (
        <>
          <PaletteButton drawerToggleId={toggleId} />
          <details className="switcher" data-testid="org-switcher">
            <summary>
              <span className="switcher-kind">Organization</span>
              <span className="switcher-name">{org.name}</span>
            </summary>
            <ul>
              {orgs.map((o) => (
                <li key={o.slug}>
                  <Link href={`/orgs/${o.slug}`} aria-current={o.slug === org.slug ? "true" : undefined}>
                    {o.name}
                  </Link>
                </li>
              ))}
              <li>
                <Link href="/orgs">All organizations</Link>
              </li>
            </ul>
          </details>
          <details className="switcher" data-testid="project-switcher">
            <summary>
              <span className="switcher-kind">Project</span>
              <span className="switcher-name">{project?.name ?? "All projects"}</span>
            </summary>
            <ul>
              <li>
                <Link href={switchProjectHref(org.slug, pathname, null)}>All projects</Link>
              </li>
              {projects.map((p) => (
                <li key={p.slug}>
                  <Link href={switchProjectHref(org.slug, pathname, p.slug)} aria-current={p.slug === project?.slug ? "true" : undefined}>
                    {p.name}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
          <nav aria-label="Sections">
            <ul className="sections" data-testid="sections">
              {sections.map((s) => (
                <li key={s.id}>
                  <Link href={s.href} aria-current={s.current ? "page" : undefined} data-section={s.id}>
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </>
      )}
      <nav aria-label="Account" className="account-nav">
        <ul className="sections" data-testid="account-sections">
          {own.map((s, i) => (
            <Fragment key={s.id}>
              {s.group && s.group !== own[i - 1]?.group && <li className="sections-group">{s.group}</li>}
              <li>
                <Link href={s.href} aria-current={s.current ? "page" : undefined} data-section={s.id}>
                  {s.label}
                </Link>
              </li>
            </Fragment>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
