/**
 * API token scopes, named as Sentry names them (https://docs.sentry.io/api/permissions/): a
 * resource and a level. A higher level of a resource covers the lower ones (`project:admin`
 * may do what `project:write` and `project:read` may), as Sentry's endpoints accept any of
 * them; `project:releases` is its own grant, also covered by `project:write` and above.
 * A token never does more than its user's role allows: the permission table checks both.
 */
export const SCOPES = [
  "org:read",
  "org:write",
  "org:admin",
  "project:read",
  "project:write",
  "project:admin",
  "project:releases",
  "team:read",
  "team:write",
  "team:admin",
  "member:read",
  "member:write",
  "member:admin",
  "event:read",
  "event:write",
  "event:admin",
  "alerts:read",
  "alerts:write",
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN: ReadonlySet<string> = new Set(SCOPES);

export function isScope(name: string): name is Scope {
  return KNOWN.has(name);
}

const LEVELS = ["read", "write", "admin"] as const;

/** The scopes that grant `needed`: itself and the higher levels of its resource. */
export function scopesGranting(needed: Scope): Scope[] {
  const [resource, level] = needed.split(":") as [string, string];
  if (level === "releases") return ["project:releases", "project:write", "project:admin"];
  const from = LEVELS.indexOf(level as (typeof LEVELS)[number]);
  return LEVELS.slice(from)
    .map((l) => `${resource}:${l}`)
    .filter(isScope);
}

/** Whether a token with `granted` scopes may act where `needed` is required; null grants every scope. */
export function scopeAllows(granted: ReadonlySet<Scope> | null, needed: Scope): boolean {
  return granted === null || scopesGranting(needed).some((s) => granted.has(s));
}

/** Stored form: the scopes in SCOPES order, space-separated, each once. */
export function formatScopes(scopes: Iterable<Scope>): string {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s)).join(" ");
}

/** Reads the stored form; unknown names (a scope a later version dropped) grant nothing. */
export function parseScopes(stored: string | null): ReadonlySet<Scope> | null {
  if (stored === null) return null;
  return new Set(stored.split(" ").filter(isScope));
}
