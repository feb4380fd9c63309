import { withId, type Migration } from "./helpers";

/**
 * Issue alert rules, in Sentry's rule shape: `conditions`, `filters` and `actions` are
 * JSON lists of `{ id, ...fields }` as Sentry's API takes them (src/core/alerts/rule-schema.ts).
 * Existing projects get no rule here: new projects get the default rule when they are created
 * (src/core/projects/create-project.ts), and the internal project never does.
 */
export const m0023: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("alert_rules"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("action_match", "text", (c) => c.notNull())
      .addColumn("filter_match", "text", (c) => c.notNull())
      .addColumn("frequency", "integer", (c) => c.notNull())
      .addColumn("environment", "text")
      .addColumn("conditions", "text", (c) => c.notNull())
      .addColumn("filters", "text", (c) => c.notNull())
      .addColumn("actions", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_by", "integer")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("alert_rules_project").on("alert_rules").column("project_id").execute();
  },
};
