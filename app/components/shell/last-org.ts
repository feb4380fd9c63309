/**
 * The cookie naming the organization the person last had open, so pages that belong to no
 * organization (/account, /admin/users, /orgs) keep the same sidebar. It is a preference, not a
 * credential: the server only picks it among the organizations the person may already read.
 */
export const LAST_ORG_COOKIE = "telltale_org";

/** A year, in seconds: the preference outlives sessions, like the org switcher's choice would. */
export const LAST_ORG_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * The organization the shell shows outside an organization's pages: the remembered one while the
 * person can still see it, else the one the home page opens (the first that is not the
 * self-monitoring organization), else none (someone who belongs to no organization yet).
 */
export function pickShellOrg<A extends { org: { slug: string; is_internal: number } }>(
  orgs: readonly A[],
  remembered: string | null | undefined,
): A | null {
  return orgs.find((o) => o.org.slug === remembered) ?? orgs.find((o) => !o.org.is_internal) ?? orgs[0] ?? null;
}
