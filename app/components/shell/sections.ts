import { permissionRow, roleAllows, type Permission } from "@/src/core/permissions/table";
import type { Role } from "@/src/core/orgs/roles";

/** What a sidebar entry may depend on: the organization, the chosen project (if any) and the role. */
export interface ShellScope {
  org: string;
  project: string | null;
  role: Role;
}

export interface Section {
  id: string;
  label: string;
  /** Where the entry leads, or null when it does not apply in this scope (then it is not shown). */
  href(scope: ShellScope): string | null;
  /** Shown only when the role may see the page behind it, so no link ends on a refusal. */
  visible?(scope: ShellScope): boolean;
  /** The organization's home matches only itself; other sections also match the pages below them. */
  exact?: boolean;
}

/**
 * The sidebar, in the order of issue 10's list (Issues, Traces, Logs, Releases, Alerts, Feedback,
 * Monitors, Stats, Settings). A section joins this array when its page exists, never before:
 * there are no dead links. Traces has only a detail page so far, hence no entry.
 */
export const SECTIONS: readonly Section[] = [
  { id: "projects", label: "Projects", href: (s) => `/orgs/${s.org}`, exact: true },
  { id: "issues", label: "Issues", href: (s) => (s.project ? `/orgs/${s.org}/issues?project=${s.project}` : `/orgs/${s.org}/issues`) },
  { id: "releases", label: "Releases", href: (s) => (s.project ? `/orgs/${s.org}/projects/${s.project}/releases` : null) },
  {
    id: "alerts",
    label: "Alerts",
    href: (s) => (s.project ? `/orgs/${s.org}/projects/${s.project}/alerts` : null),
    visible: (s) => roleAllows(s.role, "alert:read"),
  },
  // The organization's metric alerts: not one project's, so shown with or without one.
  {
    id: "metric-alerts",
    label: "Metric alerts",
    href: (s) => `/orgs/${s.org}/metric-alerts`,
    visible: (s) => roleAllows(s.role, "alert:read"),
  },
  { id: "stats", label: "Stats", href: (s) => (s.project ? `/orgs/${s.org}/projects/${s.project}/stats` : null) },
  // The chosen project's settings; without a project, the organization's (for those who may change them).
  {
    id: "settings",
    label: "Settings",
    href: (s) =>
      s.project ? `/orgs/${s.org}/projects/${s.project}/settings` : roleAllows(s.role, "org:write") ? `/orgs/${s.org}/settings` : null,
  },
  { id: "members", label: "Members", href: (s) => `/orgs/${s.org}/members` },
  { id: "teams", label: "Teams", href: (s) => `/orgs/${s.org}/teams` },
  { id: "tokens", label: "API tokens", href: (s) => `/orgs/${s.org}/tokens` },
  {
    id: "dead-letters",
    label: "Dead letters",
    href: (s) => `/orgs/${s.org}/dead-letters`,
    visible: (s) => roleAllows(s.role, "dead-letter:read"),
  },
  {
    id: "audit-log",
    label: "Audit log",
    href: (s) => `/orgs/${s.org}/audit-log`,
    visible: (s) => roleAllows(s.role, "org:audit"),
  },
];

export interface ShownSection {
  id: string;
  label: string;
  href: string;
  current: boolean;
}

/** The entries for one scope, with the one the pathname lies under marked current. */
export function shownSections(scope: ShellScope, pathname: string): ShownSection[] {
  return SECTIONS.flatMap((section) => {
    const href = section.href(scope);
    if (href === null || (section.visible && !section.visible(scope))) return [];
    const path = href.split("?")[0] ?? href;
    const current = section.exact ? pathname === path : pathname === path || pathname.startsWith(`${path}/`);
    return [{ id: section.id, label: section.label, href, current }];
  });
}

export interface AccountEntry {
  id: string;
  label: string;
  href: string;
  /** The row the page behind the entry is guarded by; the entry shows only to whom the row admits. */
  permission: Permission;
  /** A heading the entry is listed under (server administration), or none. */
  group?: string;
}

/**
 * The signed-in user's own entries, below the organization's: their account
 * for everyone, the server's users for superusers (the pages answer not-found to anyone else).
 */
export const ACCOUNT_ENTRIES: readonly AccountEntry[] = [
  { id: "account", label: "Account", href: "/account", permission: "account:write" },
  { id: "users", label: "Users", href: "/admin/users", permission: "user:admin", group: "Admin" },
];

/**
 * Whether a signed-in person may open a page guarded by a row that needs no organization: the
 * table's audience decides (signed-in rows admit everyone, superuser rows the flag), as
 * `roleAllows` decides for the organization's entries. Organization rows need a role, so no.
 */
export function personAllows(superuser: boolean, permission: Permission): boolean {
  const { audience } = permissionRow(permission);
  return audience === "public" || audience === "signed-in" || (audience === "superuser" && superuser);
}

export interface ShownAccountEntry extends ShownSection {
  group?: string;
}

export function accountSections(superuser: boolean, pathname: string): ShownAccountEntry[] {
  return ACCOUNT_ENTRIES.filter((e) => personAllows(superuser, e.permission)).map(({ permission: _, ...e }) => ({
    ...e,
    current: pathname === e.href || pathname.startsWith(`${e.href}/`),
  }));
}

/** The project a URL is about: a /projects/<slug>/ path or the issue stream's ?project=. */
export function projectInUrl(pathname: string, project: string | null): string | null {
  const match = /^\/orgs\/[^/]+\/projects\/([^/]+)/.exec(pathname);
  if (match?.[1] && match[1] !== "new") return decodeURIComponent(match[1]);
  return project || null;
}

/** Where the project switcher leads: the same project page for another project, else its issues. */
export function switchProjectHref(org: string, pathname: string, to: string | null): string {
  if (to === null) return `/orgs/${org}/issues`;
  const match = /^\/orgs\/[^/]+\/projects\/[^/]+\/(stats|settings)(\/.*)?$/.exec(pathname);
  if (match?.[1]) return `/orgs/${org}/projects/${to}/${match[1]}${match[2] ?? ""}`;
  return `/orgs/${org}/issues?project=${to}`;
}
