import Link from "next/link";

const TABS = [
  { id: "issues", title: "Issues" },
  { id: "stats", title: "Stats" },
  { id: "settings", title: "Settings" },
] as const;

/** The project's sections; `current` is the one shown. */
export function ProjectNav({ org, project, current }: { org: string; project: string; current: Exclude<(typeof TABS)[number]["id"], "issues"> }) {
  return (
    <nav className="tabs" aria-label="Project">
      {TABS.map((t) => (
        <Link key={t.id} href={t.id === "issues" ? `/orgs/${org}/issues?project=${project}` : `/orgs/${org}/projects/${project}/${t.id}`} aria-current={t.id === current ? "page" : undefined}>
          {t.title}
        </Link>
      ))}
    </nav>
  );
}
