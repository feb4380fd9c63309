import type { Migration } from "./helpers";
import { withId } from "./helpers";

export const m0003: Migration = {
  async up(db, dialect) {
    await withId(db.schema.createTable("ingest_queue"), dialect)
      .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
      .addColumn("key_id", "integer", (c) => c.notNull())
      .addColumn("endpoint", "text", (c) => c.notNull())
      .addColumn("received_at", "bigint", (c) => c.notNull())
      .addColumn("body", dialect === "sqlite" ? "blob" : "bytea", (c) => c.notNull())
      .execute();
  },
};
