/**
 * The token form's access levels per resource, as Sentry's "Create New Token" page offers them:
 * each level grants its scope and those below it (src/core/tokens/scopes.ts).
 */
export interface ScopeResource {
  id: string;
  label: string;
  levels: { value: string; label: string; scopes: string[] }[];
}

const levels = (resource: string, withAdmin = true) => [
  { value: "read", label: "Read", scopes: [`${resource}:read`] },
  { value: "write", label: "Read & write", scopes: [`${resource}:read`, `${resource}:write`] },
  ...(withAdmin ? [{ value: "admin", label: "Admin", scopes: [`${resource}:read`, `${resource}:write`, `${resource}:admin`] }] : []),
];

export const SCOPE_RESOURCES: readonly ScopeResource[] = [
  { id: "project", label: "Project", levels: levels("project") },
  { id: "event", label: "Issue & event", levels: levels("event") },
  { id: "releases", label: "Release", levels: [{ value: "admin", label: "Admin", scopes: ["project:releases"] }] },
  { id: "org", label: "Organization", levels: levels("org") },
  { id: "team", label: "Team", levels: levels("team") },
  { id: "member", label: "Member", levels: levels("member") },
  { id: "alerts", label: "Alerts", levels: levels("alerts", false) },
];

/** What a new token gets unless changed: enough to read projects and their issues. */
export const DEFAULT_LEVELS: Readonly<Record<string, string>> = { project: "read", event: "read" };
