import type { Migration } from "./helpers";

/**
 * Each project stores the grouping strategy version it uses (decision record
 * docs/decisions/0011-grouping-config-per-project.md). Every project that exists now was grouped
 * with `telltale:2026-11-22`, the only version so far, so that is what they keep; a later
 * version applies to them only when an owner upgrades, with a transition period during which
 * the previous version's hashes still find the old issues.
 */
export const m0011: Migration = {
  async up(db) {
    await db.schema
      .alterTable("projects")
      .addColumn("grouping_config", "text", (c) => c.notNull().defaultTo("telltale:2026-11-22"))
      .execute();
    await db.schema.alterTable("projects").addColumn("grouping_previous_config", "text").execute();
    await db.schema.alterTable("projects").addColumn("grouping_transition_until", "bigint").execute();
  },
};
