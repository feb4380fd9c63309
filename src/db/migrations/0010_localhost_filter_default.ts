import type { Migration } from "./helpers";

/**
 * The localhost inbound filter turns off by default for new projects (decision record
 * docs/decisions/0008-localhost-filter-off-by-default.md). Projects that exist now were
 * filtering localhost through the old default, so that value is written into each one's
 * stored filters before the default changes: nobody's filtering changes silently on upgrade.
 * A project with its own `localhost` switch keeps it (the internal project's `false`, 0005).
 */
export const m0010: Migration = {
  async up(db) {
    const rows = (await db
      .selectFrom("projects")
      .leftJoin("project_options", "project_options.project_id", "projects.id")
      .select(["projects.id as id", "project_options.filters as filters", "project_options.project_id as hasOptions"])
      .execute()) as { id: number; filters: string | null; hasOptions: number | null }[];
    for (const row of rows) {
      const stored = storedObject(row.filters);
      if (typeof stored.localhost === "boolean") continue;
      const filters = JSON.stringify({ ...stored, localhost: true });
      if (row.hasOptions === null) {
        await db.insertInto("project_options").values({ project_id: row.id, filters, scrubbing: "{}" }).execute();
      } else {
        await db.updateTable("project_options").set({ filters }).where("project_id", "=", row.id).execute();
      }
    }
  },
};

/** The stored filters as an object; text that is not a JSON object counted as "all defaults" and becomes `{}`. */
function storedObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
