import { Migrator, type MigrationResultSet } from "kysely";
import type { Store } from "./connect";
import { m0001 } from "./migrations/0001_foundation";
import { m0002 } from "./migrations/0002_internal_project";
import { m0003 } from "./migrations/0003_ingest_queue";
import type { AnyDb, Migration } from "./migrations/helpers";

/** Every migration, in order. Names are permanent: they are recorded in kysely_migration. */
const MIGRATIONS: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_internal_project": m0002,
  "0003_ingest_queue": m0003,
};

export interface MigrateResult {
  applied: string[];
}

/** Brings the database to the newest schema. Safe to run at every start and from several processes. */
export async function migrate(store: Store): Promise<MigrateResult> {
  const migrator = new Migrator({
    db: store.db,
    provider: {
      getMigrations: () =>
        Promise.resolve(
          Object.fromEntries(
            Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: AnyDb) => m.up(db, store.dialect) }]),
          ),
        ),
    },
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
