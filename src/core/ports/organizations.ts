import type { Organization } from "../orgs/organization";

/**
 * Organizations themselves: finding, creating and renaming them. Who belongs to one is the
 * directory's (src/core/ports/directory.ts). Implemented over the main database by
 * src/db/organization-store.ts.
 */
export interface OrganizationStore {
  /** Every organization: the self-monitoring one after the others, each group by slug. */
  all(): Promise<Organization[]>;
  bySlug(slug: string): Promise<Organization | null>;
  /**
   * In one transaction: the organization, the membership of its owner (the user with that
   * lower-case email, when given) and its default team, named after it and holding the owner.
   * An unknown owner is refused before a taken slug; either way nothing changes.
   */
  create(
    org: { slug: string; name: string },
    ownerEmail: string | null,
    now: number,
  ): Promise<{ org: Organization } | { refused: "unknown-owner" | "slug-taken" }>;
  /** Renames an organization (`change` names at least one field); null when another organization has the new slug. */
  update(orgId: number, change: { name?: string; slug?: string }): Promise<Organization | null>;
}
