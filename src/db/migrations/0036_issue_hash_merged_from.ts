import type { Migration } from "./helpers";

/**
 * Unmerging needs to know which fingerprints a merge moved: `merged_from` names the issue a hash
 * belonged to before it was merged into another (null for a hash still on its own issue).
 * Hashes merged before this column existed keep null, and those merges cannot be undone.
 */
export const m0036: Migration = {
  async up(db) {
    await db.schema.alterTable("issue_hashes").addColumn("merged_from", "integer").execute();
  },
};
