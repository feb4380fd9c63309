import Link from "next/link";

const TABS = [
  { id: "stats", title: "Stats" },
  { id: "settings", title: "Settings" },
] as const;

/** The project's sections; `current` is the one shown. */
export function ProjectNav({ org, project, current }: { org: string; project: string; current: (typeof TABS)[number]["id"] }) {
  return (
    <nav className="tabs" aria-label="Project">
      {TABS.map((t) => (
        <Link key={t.id} href={`/orgs/${org}/projects/${project}/${t.id}`} aria-current={t.id === current ? "page" : undefined}>
          {t.title}
        </Link>
      ))}
    </nav>
  );
}
