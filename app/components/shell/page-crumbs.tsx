import Link from "next/link";
import type { ReactNode } from "react";

export interface Crumb {
  label: ReactNode;
  /** Absent for the page itself (the last crumb), which is marked as the current page. */
  href?: string;
}

/**
 * Where a page sits, one link per level up. Named PageCrumbs so it does not collide with the
 * event breadcrumbs of components/issue/breadcrumbs.tsx. Markup follows the WAI-ARIA pattern:
 * https://www.w3.org/WAI/ARIA/apg/patterns/breadcrumb/
 */
export function PageCrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {items.map((c, i) => (
          <li key={i} aria-current={i === items.length - 1 && !c.href ? "page" : undefined}>
            {c.href ? <Link href={c.href}>{c.label}</Link> : c.label}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The crumbs and heading of one of a project's own pages: organization › project › the page. */
export function ProjectPageHeading({ org, project, page }: { org: NamedSlug; project: NamedSlug; page: string }) {
  return (
    <>
      <PageCrumbs
        items={[
          { label: org.name, href: `/orgs/${org.slug}` },
          { label: project.name, href: `/orgs/${org.slug}/issues?project=${project.slug}` },
          { label: page },
        ]}
      />
      <h1>
        {project.name} · {page}
      </h1>
    </>
  );
}

interface NamedSlug {
  name: string;
  slug: string;
}
