import type { CreateTableBuilder, Kysely } from "kysely";
import type { Dialect } from "../connect";

// Migrations see the database untyped: they describe history, not the current schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own convention for migrations
export type AnyDb = Kysely<any>;

export interface Migration {
  up(db: AnyDb, dialect: Dialect): Promise<void>;
}

/** An auto-incrementing integer primary key named `id`, spelled as each dialect wants it. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, "id"> {
  return dialect === "sqlite"
    ? table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    : table.addColumn("id", "serial", (c) => c.primaryKey());
}
